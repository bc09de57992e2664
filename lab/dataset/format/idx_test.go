package format

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestReadIDX(t *testing.T) {
	data := []byte{0, 0, 0x08, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6}
	got, err := ReadIDX(bytes.NewReader(data), "t.idx")
	if err != nil {
		t.Fatal(err)
	}
	want := &IDX{Dims: []int{2, 3}, Data: []byte{1, 2, 3, 4, 5, 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// A zero dimension is a valid, empty array.
	got, err = ReadIDX(bytes.NewReader([]byte{0, 0, 8, 1, 0, 0, 0, 0}), "t.idx")
	if err != nil || len(got.Data) != 0 || !reflect.DeepEqual(got.Dims, []int{0}) {
		t.Errorf("empty array: got %+v, %v", got, err)
	}
}

func TestReadIDXErrors(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "t.idx: offset 0: file ends inside the magic number"},
		{"short magic", []byte{0, 0}, "t.idx: offset 2: file ends inside the magic number"},
		{"bad magic", []byte{1, 0, 8, 1}, "t.idx: offset 0: bad magic 01 00"},
		{"float type", []byte{0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0}, "t.idx: offset 2: element type 0x0D (float32) is not supported"},
		{"unknown type", []byte{0, 0, 0x07, 1}, "t.idx: offset 2: unknown element type 0x07"},
		{"zero dims", []byte{0, 0, 8, 0}, "t.idx: offset 3: zero dimensions"},
		{"short dims", []byte{0, 0, 8, 2, 0, 0, 0, 1, 0}, "t.idx: offset 9: file ends inside the dimensions"},
		{"truncated data", []byte{0, 0, 8, 1, 0, 0, 0, 3, 7, 7}, "t.idx: offset 10: data truncated: the dimensions [3] need 3 bytes, found 2"},
		{"trailing data", []byte{0, 0, 8, 1, 0, 0, 0, 1, 7, 7}, "t.idx: offset 9: trailing data after the 1 bytes"},
		{"huge dimension", []byte{0, 0, 8, 1, 0xff, 0xff, 0xff, 0xff}, "t.idx: offset 4: dimension 0 (4294967295) makes the data larger than the cap"},
		{"huge product", []byte{0, 0, 8, 3, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 1}, "t.idx: offset 12: dimension 2 (1025) makes the data larger than the cap"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadIDX(bytes.NewReader(c.data), "t.idx")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got error %v, want prefix %q", err, c.want)
			}
		})
	}
}

// A header that promises 512 MiB followed by three bytes must fail without allocating the
// promised size.
func TestReadIDXDoesNotTrustHeader(t *testing.T) {
	data := []byte{0, 0, 8, 1, 0x20, 0, 0, 0, 1, 2, 3}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadIDX(bytes.NewReader(data), "t.idx")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "data truncated") {
		t.Fatalf("got %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("allocated %d bytes for a 3-byte body", grew)
	}
}

func FuzzReadIDX(f *testing.F) {
	f.Add([]byte{0, 0, 0x08, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{0, 0, 0x08, 1, 0, 0, 0, 3, 7})
	f.Add([]byte{0, 0, 0x0D, 1, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 8, 1, 0x20, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadIDX(bytes.NewReader(data), "fuzz.idx")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.idx: offset ") {
				t.Fatalf("error without the file name and offset: %v", err)
			}
			return
		}
		size := 1
		for _, d := range m.Dims {
			size *= d
		}
		if size != len(m.Data) || 4+4*len(m.Dims)+size != len(data) {
			t.Fatalf("dims %v but %d data bytes in a %d-byte file", m.Dims, len(m.Data), len(data))
		}
	})
}
