// The Go kit's action-form checker as an adapter uses it (tests/kits/test_go_kit.py runs
// this): each stdin line, [action, variants], read as a setup's variants (t42.FormsOf)
// and the action checked (t42.CheckAction); "ok" or the refusal's code on a line.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	t42 "t42kit"
)

func main() {
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<16), 1<<20)
	for lines.Scan() {
		var given [2]json.RawMessage
		if err := json.Unmarshal(lines.Bytes(), &given); err != nil {
			panic(err)
		}
		var variants t42.Variants
		if err := json.Unmarshal(given[1], &variants); err != nil {
			panic(err)
		}
		_, err := t42.CheckAction(given[0], t42.FormsOf(&variants))
		var refused *t42.Rejected
		switch {
		case err == nil:
			fmt.Println("ok")
		case errors.As(err, &refused):
			fmt.Println(refused.Code)
		default:
			panic(err)
		}
	}
}
