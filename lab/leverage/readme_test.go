package leverage_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEExampleIsExampleDataset checks that the README's library example is, verbatim, the
// code of Example_dataset and its helper, which go test runs against its // Output: line, so the
// README can neither drift from working code nor print numbers no run gave.
func TestREADMEExampleIsExampleDataset(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(example)
	code = strings.TrimSpace(code[strings.Index(code, "func Example_dataset() {"):])
	section := string(readme)
	start := strings.Index(section, "## Using the library")
	if start < 0 {
		t.Fatal("README has no section 'Using the library'")
	}
	section = section[start:]
	open := strings.Index(section, "```go\n")
	if open < 0 {
		t.Fatal("README's 'Using the library' has no ```go block")
	}
	block := section[open+len("```go\n"):]
	block = strings.TrimSpace(block[:strings.Index(block, "```")])
	if block != code {
		t.Fatalf("README's library example differs from Example_dataset (lab/leverage/example_readme_test.go); paste it again:\n%s", code)
	}
}
