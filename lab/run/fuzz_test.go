package run

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzReadTable checks the table parser never panics, and that whatever it accepts is written back
// and read again to the same rows.
func FuzzReadTable(f *testing.F) {
	const head = "id,dataset,method,params,rep,metric,value\n"
	f.Add([]byte(head + "e,\"a,b\",m,s=1;t=x,0,err,0.30000000000000004\n"))
	f.Add([]byte(head + "e,,m,,3,t,-1e-310\n"))
	f.Add([]byte(head + "e,d,m,s=,0,err,1e400\n"))
	f.Add([]byte("id,dataset\n\"unterminated"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := readTable(bytes.NewReader(data), "fuzz.csv")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := writeTable(&buf, rows); err != nil {
			t.Fatalf("accepted rows do not write back: %v", err)
		}
		again, err := readTable(&buf, "again.csv")
		if err != nil {
			t.Fatalf("written table does not read back: %v\n%s", err, buf.Bytes())
		}
		if !reflect.DeepEqual(again, rows) {
			t.Fatalf("round trip changed rows:\n%+v\n%+v", rows, again)
		}
	})
}
