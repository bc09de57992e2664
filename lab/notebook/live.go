package notebook

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"
)

// Control is an integer slider of a live figure ([Live]).
type Control struct {
	// Label names the parameter beside the slider and in the figure's alt text.
	Label string
	// Min, Max and Value are the slider's range and its default, which the static figure shows.
	Min, Max, Value int
	// Format writes a value as the reader should see it (a λ from its exponent, an estimator's
	// name from its index); nil writes the integer.
	Format func(int) string
}

// text returns the control's value v as shown.
func (c Control) text(v int) string {
	if c.Format != nil {
		return c.Format(v)
	}
	return strconv.Itoa(v)
}

// Frame is one drawing of a live figure: a PNG image and its alternative text, which names the
// values it was drawn for (a screen reader reads it; the browser test checks it).
type Frame struct {
	PNG []byte
	Alt string
}

// Render draws a live figure for the controls' values (in the order of the controls).
type Render func(values []int) (Frame, error)

// Environment variables of live figures.
const (
	// LiveIdleVariable sets how long, in seconds, a live figure waits for its controls to move
	// before the cell ends (default 600). The browser tests set it short.
	LiveIdleVariable = "LAB_LIVE_IDLE"
	// LiveProbeVariable sets how long, in seconds, Live waits for a browser to answer before it
	// keeps the static figure (default 3). Headless runs (nbconvert) have none and wait this long
	// once per live figure.
	LiveProbeVariable = "LAB_LIVE_PROBE"
)

// debounce is how long a redraw waits for the controls to settle: values that arrive within it
// are drawn once, at the latest value.
const debounce = 40 * time.Millisecond

// Live shows a figure that its controls redraw. It first draws the figure at the controls'
// defaults and displays it (so a notebook run headless, by nbconvert or GitHub's viewer, shows a
// complete static figure); then, when a browser runs the notebook, it shows a slider per control,
// the values and a Done button above the figure, and replaces the figure in place each time a
// slider moves (the latest value after a 40 ms pause, so a dragged slider redraws at the speed
// render allows). It returns when Done is pressed, or once the controls have been idle for
// $LAB_LIVE_IDLE seconds (default 600); the figure last drawn stays in the cell's output, the
// controls go. Without a browser it returns after $LAB_LIVE_PROBE seconds (default 3).
//
// While it runs the cell is busy, as with any GoNB widget: press Done to run other cells.
// A render error is shown in place of the figure and the controls stay usable; errors in the
// controls themselves (no label, an empty range, a default outside it) are returned at once.
func Live(title string, controls []Control, render Render) error {
	values, err := checkControls(controls, render)
	if err != nil {
		return err
	}
	figure := "lab-live-" + gonbui.UniqueID()
	frame, err := render(values)
	if err != nil {
		return fmt.Errorf("notebook: Live %q: default figure: %w", title, err)
	}
	gonbui.UpdateHTML(figure, frameHTML(title, frame))
	gonbui.Sync()
	if !gonbui.IsNotebook || !browserAttached(seconds(LiveProbeVariable, 3)) {
		return nil
	}
	panel := dom.CreateTransientDiv()
	dom.Append(panel, fmt.Sprintf(`<div style="font-family:sans-serif;font-size:small"><b>%s</b>: move a slider to redraw the figure below.</div>`, html.EscapeString(title)))
	updates := make(chan [2]int, 16) // control index, value
	var sliders []*widgets.SliderBuilder
	for i, c := range controls {
		row := "lab-live-row-" + gonbui.UniqueID()
		dom.Append(panel, fmt.Sprintf(`<div id="%s" style="font-family:monospace;font-size:small">%s </div>`, row, html.EscapeString(c.Label)))
		s := widgets.Slider(c.Min, c.Max, c.Value).AppendTo(row).Done()
		sliders = append(sliders, s)
		valueID := valueSpanID(figure, i)
		dom.Append(row, fmt.Sprintf(` <span id="%s">%s</span>`, valueID, html.EscapeString(c.text(c.Value))))
		ch := s.Listen().LatestOnly()
		go func() {
			for v := range ch.C {
				updates <- [2]int{i, v}
			}
		}()
	}
	done := widgets.Button("Done").AppendTo(panel).Done().Listen()
	idle := seconds(LiveIdleVariable, 600)
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		select {
		case <-done.C:
			return nil
		case <-timer.C:
			return nil
		case u := <-updates:
			values[u[0]] = u[1]
			settle(updates, values)
			for i, c := range controls {
				dom.SetInnerText(valueSpanID(figure, i), c.text(values[i]))
			}
			if f, err := render(values); err != nil {
				gonbui.UpdateHTML(figure, fmt.Sprintf(`<pre style="color:#b00">%s</pre>`, html.EscapeString(err.Error())))
			} else {
				gonbui.UpdateHTML(figure, frameHTML(title, f))
			}
			timer.Reset(idle)
		}
	}
}

// checkControls validates the controls and render, and returns the default values.
func checkControls(controls []Control, render Render) ([]int, error) {
	if render == nil {
		return nil, errors.New("notebook: Live: nil render function")
	}
	if len(controls) == 0 {
		return nil, errors.New("notebook: Live: no controls")
	}
	values := make([]int, len(controls))
	for i, c := range controls {
		switch {
		case strings.TrimSpace(c.Label) == "":
			return nil, fmt.Errorf("notebook: Live: control %d has no label", i)
		case c.Min >= c.Max:
			return nil, fmt.Errorf("notebook: Live: control %q: range [%d, %d] is empty, want Min < Max", c.Label, c.Min, c.Max)
		case c.Value < c.Min || c.Value > c.Max:
			return nil, fmt.Errorf("notebook: Live: control %q: default %d outside [%d, %d]", c.Label, c.Value, c.Min, c.Max)
		}
		values[i] = c.Value
	}
	return values, nil
}

// settle gathers the updates that arrive within debounce of each other into values.
func settle(updates <-chan [2]int, values []int) {
	for {
		select {
		case u := <-updates:
			values[u[0]] = u[1]
		case <-time.After(debounce):
			return
		}
	}
}

// valueSpanID is the id of the element that shows control i's value of the figure.
func valueSpanID(figure string, i int) string { return fmt.Sprintf("%s-value-%d", figure, i) }

// frameHTML is the <img> element of a frame, its PNG inline, with the title and values in its
// alt text.
func frameHTML(title string, f Frame) string {
	alt := title
	if f.Alt != "" {
		alt += ": " + f.Alt
	}
	return fmt.Sprintf(`<img src="data:image/png;base64,%s" alt="%s" title="%s" style="max-width:100%%"/>`,
		base64.StdEncoding.EncodeToString(f.PNG), html.EscapeString(alt), html.EscapeString(alt))
}

// AltText names the values of the controls as "label = value, ...": the usual Frame.Alt.
func AltText(controls []Control, values []int) string {
	parts := make([]string, 0, len(controls))
	for i, c := range controls {
		if i < len(values) {
			parts = append(parts, c.Label+" = "+c.text(values[i]))
		}
	}
	return strings.Join(parts, ", ")
}

// browserAttached reports whether a browser runs the notebook: it installs GoNB's front-end
// connection and has the page send a value to Go, waiting at most wait for it (a run without a
// browser, such as nbconvert's, never answers). The kernel installs the connection's script
// asynchronously, and may replace it (GoNB checks an installed connection with a heartbeat and
// reinstalls it when the check times out, closing the old one), so the page sends the value
// every 250 ms through whichever connection is current, for as long as Go waits: a single send
// sometimes went to no connection, or to one about to be closed, and the figure stayed static in a
// browser (seen once in six runs of the browser test).
func browserAttached(wait time.Duration) bool {
	address := "/lab/live/probe/" + gonbui.UniqueID()
	// LatestOnly: the repeated values replace each other instead of blocking GoNB's dispatcher.
	// The channel is not closed: GoNB's subscriptions cost little, and the cell's program ends soon.
	ch := comms.Listen[int](address).LatestOnly()
	comms.Start()
	dom.TransientJavascript(fmt.Sprintf(`(() => {
	const until = Date.now() + %d;
	let n = 0;
	const probe = () => {
		if (globalThis.gonb_comm) { globalThis.gonb_comm.send(%q, ++n); }
		if (Date.now() < until) { setTimeout(probe, 250); }
	};
	probe();
})();`, wait.Milliseconds(), address))
	select {
	case <-ch.C:
		return true
	case <-time.After(wait):
		return false
	}
}

// seconds reads a duration in seconds from the environment variable name, or def when it is
// unset or not a positive number.
func seconds(name string, def float64) time.Duration {
	v, err := strconv.ParseFloat(os.Getenv(name), 64)
	if err != nil || !(v > 0) || v > 1e6 {
		v = def
	}
	return time.Duration(v * float64(time.Second))
}

// CheckValues returns an error unless values holds one value per control, each within its
// control's range: the guard of a Render, which a notebook may call with any values.
func CheckValues(controls []Control, values []int) error {
	if len(values) != len(controls) {
		return fmt.Errorf("notebook: %d values for %d controls", len(values), len(controls))
	}
	for i, c := range controls {
		if v := values[i]; v < c.Min || v > c.Max {
			return fmt.Errorf("notebook: %s = %d outside [%d, %d]", c.Label, v, c.Min, c.Max)
		}
	}
	return nil
}
