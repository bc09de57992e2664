package run

import (
	"fmt"
	"reflect"
	"sync"
)

// Cache keeps what the tasks of a run load, by key, so that a data set (or anything else costly
// that the tasks share and never modify) is loaded once per run, however many tasks need it and
// on however many workers. Execute makes one per call unless Options.Cache gives one to share
// between the experiments of one program run; tasks reach it through Env.Cache and Cached. The
// zero value is an empty cache ready to use; a Cache is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

// cacheEntry is one key's value, or the load under way: done is closed when the load is over.
type cacheEntry struct {
	done  chan struct{}
	value boxed
	err   error
}

// box holds a value with its exact type, so that a key loaded as one type is never read as another
// (an interface type included).
type box[T any] struct{ v T }

// boxed is a box of any type.
type boxed interface{ typeName() string }

func (box[T]) typeName() string { return reflect.TypeFor[T]().String() }

// Cached returns the value kept in env.Cache under key, calling load to make it the first time.
// Concurrent callers of one key wait for the one load under way and share its value. A load that
// fails (an error or a panic) is not kept: its error goes to the callers waiting on it, and the
// next call loads again, so a task cancelled while loading does not fail the tasks after it.
// The value is shared: callers must not modify it. Reading a key with another type than it was
// loaded with is an error. With a nil env.Cache (an Env made by hand) every call loads; a nil env
// or load is an error.
//
// The key names what is loaded, with every setting that changes it (data set and variant,
// subsample size...): two experiments that load the same thing under one key share it.
func Cached[T any](env *Env, key string, load func() (T, error)) (T, error) {
	if env == nil || load == nil {
		var zero T
		return zero, fmt.Errorf("run: Cached %q: nil env or load function", key)
	}
	if env.Cache == nil {
		return load()
	}
	e, loader := env.Cache.entry(key)
	if loader {
		env.Cache.fill(key, e, func() (boxed, error) {
			v, err := load()
			return box[T]{v}, err
		})
	}
	<-e.done
	var zero T
	if e.err != nil {
		return zero, e.err
	}
	b, ok := e.value.(box[T])
	if !ok {
		return zero, fmt.Errorf("run: cache: %q was loaded as %s, not %s", key, e.value.typeName(), reflect.TypeFor[T]())
	}
	return b.v, nil
}

// entry returns the entry of key and whether the caller must fill it (no entry was there).
func (c *Cache) entry(key string) (e *cacheEntry, loader bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		return e, false
	}
	if c.entries == nil {
		c.entries = make(map[string]*cacheEntry)
	}
	e = &cacheEntry{done: make(chan struct{})}
	c.entries[key] = e
	return e, true
}

// fill runs load for e and wakes its waiters; a failed load leaves the cache without the key.
// A panic in load is re-raised after the waiters got an error (the runtime turns it into the
// task's error).
func (c *Cache) fill(key string, e *cacheEntry, load func() (boxed, error)) {
	finished := false
	defer func() {
		if !finished {
			e.err = fmt.Errorf("run: cache: loading %q panicked", key)
		}
		if e.err != nil {
			c.mu.Lock()
			delete(c.entries, key)
			c.mu.Unlock()
		}
		close(e.done)
	}()
	e.value, e.err = load()
	finished = true
}
