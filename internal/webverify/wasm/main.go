//go:build js && wasm

// Command wasm is titm's verifier for the browser: webverify.CheckIn
// compiled to WebAssembly. It defines one JavaScript function,
//
//	titmVerify(bytes, head, lang) -> Promise<result>
//
// where bytes is a Uint8Array of an export's JSON file, head an optional
// log head from a report (a string, or undefined) and lang the language
// of the verdict's texts (en, ja; English when not given); the promise
// resolves to webverify.Result as a plain object (its JSON names). Then it
// waits, serving calls, until the page goes.
//
// go generate in adjudicator/journal builds it (see internal/webverify/gen)
// into the file the journal serves.
package main

import (
	"encoding/json"
	"syscall/js"

	"titm/adjudicator/lang"
	"titm/internal/webverify"
)

func main() {
	js.Global().Set("titmVerify", js.FuncOf(verify))
	// The function is called while main waits: returning would end the
	// program and free it.
	select {}
}

// verify is titmVerify: it answers with a promise at once and checks the
// export in a goroutine, which resolves it, as syscall/js asks of a
// function that works long (a js.Func that blocks blocks the event loop
// and any goroutine it waits for). The work still takes the page's one
// thread while it runs: the page shows that it is verifying before it
// calls.
func verify(_ js.Value, args []js.Value) any {
	var data []byte
	head, code := "", lang.English
	if len(args) > 0 && args[0].InstanceOf(js.Global().Get("Uint8Array")) {
		data = make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(data, args[0])
	}
	if len(args) > 1 && args[1].Type() == js.TypeString {
		head = args[1].String()
	}
	if len(args) > 2 && args[2].Type() == js.TypeString {
		code = args[2].String()
	}
	var run js.Func
	run = js.FuncOf(func(_ js.Value, p []js.Value) any {
		resolve := p[0]
		go func() {
			defer run.Release()
			var res webverify.Result
			if data == nil {
				res = webverify.Misused(code)
			} else {
				res = webverify.CheckIn(data, head, code)
			}
			resolve.Invoke(toJS(res))
		}()
		return nil
	})
	return js.Global().Get("Promise").New(run)
}

// toJS makes a result a plain JavaScript object, through its JSON.
func toJS(r webverify.Result) js.Value {
	b, err := json.Marshal(r)
	if err != nil {
		// A Result is strings, numbers and booleans: it always
		// marshals.
		panic(err)
	}
	return js.Global().Get("JSON").Call("parse", string(b))
}
