// Package t42 is the Texas 42 adapter kit for Go: the JSON-lines protocol loop of
// spec/protocol.md done once, the wire types generated from spec/schemas/ (wire.go), the
// error codes in check order (errors.go), and the helpers every adapter needs.
// Standard library only.
package t42

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
)

// ProtocolVersion is the protocol this kit speaks (spec/versions.yaml).
const ProtocolVersion = 1

// Engine is what you write: the mapping to your engine. Setup, Deal and Act get the
// payload exactly as sent (it may be malformed on purpose: Strict decodes it) and return
// nil, a *Rejected (a refusal), or another error (a crash: the scenario errors).
type Engine interface {
	Setup(setup json.RawMessage) error
	Deal(deal json.RawMessage) error
	Act(action json.RawMessage) error
	View() (any, error)             // a View, or any value of that JSON form
	Observe(seat Seat) (any, error) // an Observation
}

// Legaler, Perfter and SelfDealer are the capabilities "legal", "perft", "self_deal".
type Legaler interface{ Legal() ([]Action, error) }
type Perfter interface {
	Perft(depth int) (PerftResult, error)
}
type SelfDealer interface {
	NewMatch() error
	NextDeal() error
}

// Info is the hello result's own part: who you are and what you support.
type Info struct {
	Name    string
	Version string
	// options of spec/variants.md you support: Option("nello"), or one supported in part,
	// OptionIn("forced_bid", map[string][]any{"bid": {"any"}}) (protocol.md, Partial support)
	Variants     []Declared
	Capabilities []string // subset of "legal", "perft", "self_deal"
	Spec         string   // optional: the spec version the declaration was written for
}

// Option declares an option of spec/variants.md supported with every setting.
func Option(name string) Declared {
	option := OptionName(name)
	return Declared{Enum: &option}
}

// OptionIn declares an option supported in part: only the listed values of each setting
// named; a setting left out is supported as the option's name claims.
func OptionIn(name string, settings map[string][]any) Declared {
	return Declared{PartialOption: &PartialOption{Name: OptionName(name), Settings: settings}}
}

// Rejected is a refusal with a code of spec/errors.yaml (the constants of errors.go).
type Rejected struct{ Code, Message string }

func (r *Rejected) Error() string { return r.Code + ": " + r.Message }

// Reject returns a refusal; fmt-style message.
func Reject(code, format string, args ...any) error {
	return &Rejected{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Strict decodes a payload into v (a pointer to a wire type), refusing with `code`
// (INVALID_SETUP for a setup or deal, MALFORMED_ACTION for an action) what is not of its
// form: an unknown field, a wrong type, a required field absent, a null where the schema
// allows none. The rules' own checks (a value in range, a seat's name) are yours.
func Strict(raw json.RawMessage, v any, code string) error {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Reject(code, "%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Reject(code, "more than one JSON value")
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return Reject(code, "%v", err)
	}
	if at := formBreak(tree, reflect.TypeOf(v).Elem(), "."); at != "" {
		return Reject(code, "%s: not of the form", at)
	}
	return nil
}

var unmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// formBreak finds what encoding/json lets through: an absent required field (it keeps
// the zero value) and a null (it keeps the zero value or nil). In wire.go a field the
// schema does not require is `omitempty`, and one that may be null is a pointer without
// it. Returns the path of the first break, or "".
func formBreak(value any, t reflect.Type, at string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		return "" // a union type checks its own value
	}
	switch t.Kind() {
	case reflect.Struct:
		object, ok := value.(map[string]any)
		if !ok {
			return at
		}
		for i := 0; i < t.NumField(); i++ {
			field := t.Field(i)
			name, opts, _ := strings.Cut(field.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			child, here := object[name]
			optional := opts == "omitempty"
			nullable := !optional && field.Type.Kind() == reflect.Pointer
			switch {
			case !here && !optional, here && child == nil && !nullable:
				return at + name
			case here && child != nil:
				if broken := formBreak(child, field.Type, at+name+"."); broken != "" {
					return broken
				}
			}
		}
	case reflect.Slice, reflect.Array, reflect.Map:
		nullable := t.Elem().Kind() == reflect.Pointer
		check := func(key string, item any) string {
			if item == nil {
				if nullable {
					return ""
				}
				return at + key
			}
			return formBreak(item, t.Elem(), at+key+".")
		}
		switch items := value.(type) {
		case []any:
			for i, item := range items {
				if broken := check(fmt.Sprint(i), item); broken != "" {
					return broken
				}
			}
		case map[string]any:
			for key, item := range items {
				if broken := check(key, item); broken != "" {
					return broken
				}
			}
		}
	default:
		if value == nil && t.Kind() != reflect.Interface {
			return at
		}
	}
	return ""
}

// Log writes a line for people to stderr: stdout carries only replies.
func Log(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// Seats in clockwise order, and the 28 tiles in sorted order (TIL-02).
var Seats = []Seat{A, B, C, D}

func AllTiles() []Tile {
	var tiles []Tile
	for a := 0; a <= 6; a++ {
		for b := a; b <= 6; b++ {
			tiles = append(tiles, Tile(fmt.Sprintf("%d|%d", a, b)))
		}
	}
	return tiles
}

// NextSeat is the seat after s, clockwise; "" for a value that is not a seat.
func NextSeat(s Seat) Seat {
	if seatIndex(s) < 0 {
		return ""
	}
	return Seats[(seatIndex(s)+1)%4]
}

// TeamOf is "AC" or "BD".
func TeamOf(s Seat) Team {
	if s == A || s == C {
		return AC
	}
	return BD
}

func seatIndex(s Seat) int {
	for i, x := range Seats {
		if x == s {
			return i
		}
	}
	return -1
}

// DealOrder deals a shuffled order by DEAL-02: tile t_i goes to seat (d + 1 + i) mod 4,
// d the dealer's index (A=0); each hand keeps the order received (DEAL-03).
func DealOrder(order []Tile, dealer Seat) map[Seat][]Tile {
	hands := map[Seat][]Tile{A: {}, B: {}, C: {}, D: {}}
	d := seatIndex(dealer)
	for i, t := range order {
		s := Seats[(d+1+i)%4]
		hands[s] = append(hands[s], t)
	}
	return hands
}

// HandsOf checks the hands of a setup or deal (its hands, or its order dealt by DEAL-02):
// exactly one of the two, the 28 tiles once each, 7 to each seat; else a Rejected
// INVALID_SETUP (DIG-06). The hands are a copy.
func HandsOf(hands *DealHands, order []Tile, dealer Seat) (map[Seat][]Tile, error) {
	var all []Tile
	var dealt map[Seat][]Tile
	switch {
	case hands != nil && order == nil:
		dealt = map[Seat][]Tile{}
		given := map[Seat][]Tile{A: hands.A, B: hands.B, C: hands.C, D: hands.D}
		for _, s := range Seats {
			h := given[s]
			if len(h) != 7 {
				return nil, Reject(INVALID_SETUP, "seat %s has %d tiles, not 7", s, len(h))
			}
			dealt[s] = append([]Tile{}, h...)
			all = append(all, h...)
		}
	case order != nil && hands == nil:
		all, dealt = order, DealOrder(order, dealer)
	default:
		return nil, Reject(INVALID_SETUP, "give exactly one of hands and order")
	}
	seen := map[Tile]bool{}
	for _, t := range all {
		seen[t] = true
	}
	for _, t := range AllTiles() {
		if !seen[t] {
			return nil, Reject(INVALID_SETUP, "not the 28 tiles: no %s", t)
		}
	}
	if len(all) != 28 || len(seen) != 28 {
		return nil, Reject(INVALID_SETUP, "not the 28 tiles")
	}
	return dealt, nil
}

// CheckSetup checks a base-game setup decoded by Strict (which refuses the marks of one
// team only, or a null): a dealer, marks 0..6 each (SCORE-03), no draws, and hands or
// order (HandsOf); else a Rejected INVALID_SETUP. Variants are yours to check. It returns
// the dealer, the marks (0 when absent) and the hands.
func CheckSetup(setup Setup) (Seat, SetupMarks, map[Seat][]Tile, error) {
	if setup.Dealer == nil || seatIndex(*setup.Dealer) < 0 {
		return "", SetupMarks{}, nil, Reject(INVALID_SETUP, "no dealer seat")
	}
	if len(setup.Draws) > 0 {
		return "", SetupMarks{}, nil, Reject(INVALID_SETUP, "draws belong to deal_by_drawing")
	}
	marks := SetupMarks{}
	if setup.Marks != nil {
		marks = *setup.Marks
		if marks.AC < 0 || marks.AC > 6 || marks.BD < 0 || marks.BD > 6 {
			return "", SetupMarks{}, nil, Reject(INVALID_SETUP, "marks are 0..6")
		}
	}
	hands, err := HandsOf(setup.Hands, setup.Order, *setup.Dealer)
	if err != nil {
		return "", SetupMarks{}, nil, err
	}
	return *setup.Dealer, marks, hands, nil
}

// ActionForms are the action forms the options in force add (actions.md, "Actions and
// setup fields added by variants"; VAR-04): the special bids ("true" for `"plunge": true`,
// "marks" for a splash that carries its marks), the choices a bid may announce
// (`"nello": true`), and whether a declaration may name its doubles.
type ActionForms struct {
	Special      map[string]string
	Announces    []string
	NamesDoubles bool
}

// FormsOf reads the action forms from a setup's variants (nil: the base game).
func FormsOf(variants *Variants) ActionForms {
	var options map[string]any
	if variants != nil {
		text, _ := json.Marshal(variants) // the options in force, as the setup gave them
		json.Unmarshal(text, &options)
	}
	on := func(option string) bool { _, here := options[option]; return here }
	setting := func(option, name string, fallback any) any {
		if settings, ok := options[option].(map[string]any); ok {
			if value, here := settings[name]; here {
				return value
			}
		}
		return fallback
	}
	forms := ActionForms{Special: map[string]string{}}
	// PTERMS-06: with announce "declaration" the plunge is a trump choice, never a bid
	if (on("plunge") || on("plunge_terms")) && setting("plunge_terms", "announce", "bid") != "declaration" {
		forms.Special["plunge"] = "true"
	}
	if on("splash") {
		forms.Special["splash"] = "true"
		if setting("splash", "marks", 3.0) == "bid" {
			forms.Special["splash"] = "marks"
		}
	}
	if on("nello") && setting("nello", "announce", "declaration") == "bid" {
		forms.Announces = []string{"nello"}
	}
	forms.NamesDoubles = (on("nello") && setting("nello", "doubles", "high") == "declared") ||
		(on("no_trump") && setting("no_trump", "doubles", "low") == "declared")
	return forms
}

// CheckAction checks an action's form (DIG-01, actions.md "Malformed or illegal") before
// anything else: an object of a known type with exactly its fields, seat A..D, integers
// where the form has integers (never a boolean or a fraction), trump an integer or a
// string, a tile of the 28; a field an option adds only with that option in force
// (forms, from FormsOf). Else a *Rejected MALFORMED_ACTION. Values are left to the rules
// ("points": 29 and "trump": 7 are well formed). It returns the action decoded.
func CheckAction(raw json.RawMessage, forms ActionForms) (Action, error) {
	var action Action
	if why := actionFormBreak(raw, forms); why != "" {
		return action, Reject(MALFORMED_ACTION, "%s", why)
	}
	return action, Strict(raw, &action, MALFORMED_ACTION)
}

func actionFormBreak(raw json.RawMessage, forms ActionForms) string {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber() // 30 and 30.5 told apart
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return "an action is an object"
	}
	isInteger := func(v any) bool {
		n, ok := v.(json.Number)
		return ok && !strings.ContainsAny(string(n), ".eE")
	}
	exactly := func(names ...string) bool {
		for _, name := range names {
			if _, here := fields[name]; !here {
				return false
			}
		}
		return len(fields) == len(names)
	}
	_, hasSeat := fields["seat"]
	switch fields["type"] {
	case "pass":
		if !exactly("type", "seat") {
			return "a pass has type and seat only"
		}
	case "play":
		if !exactly("type", "seat", "tile") {
			return "a play has type, seat and tile only"
		}
		tile, _ := fields["tile"].(string)
		if _, ok := tileIndex[Tile(tile)]; !ok {
			return `tile is one of the 28 "a|b", a <= b`
		}
	case "bid":
		var rest []string
		for name := range fields {
			if name != "type" && name != "seat" {
				rest = append(rest, name)
			}
		}
		if len(rest) == 2 {
			for _, choice := range forms.Announces {
				_, points := fields["points"]
				_, marks := fields["marks"]
				if _, here := fields[choice]; here && (points || marks) {
					if fields[choice] != true {
						return choice + " is always true"
					}
					delete(fields, choice)
					rest = nil
					for name := range fields {
						if name != "type" && name != "seat" {
							rest = append(rest, name)
						}
					}
					break
				}
			}
		}
		if !hasSeat || len(rest) != 1 {
			return "a bid has type, seat and exactly one of points, marks or a special bid"
		}
		which := rest[0]
		form, special := forms.Special[which]
		if which == "points" || which == "marks" {
			form, special = "marks", true
		}
		if !special {
			return "a bid with " + which + " needs the option that adds it (VAR-04)"
		}
		if (form == "marks" && !isInteger(fields[which])) || (form == "true" && fields[which] != true) {
			return which + " is not of its form"
		}
	case "trump":
		for name := range fields {
			switch name {
			case "type", "seat", "trump", "stacks":
			case "doubles":
				if !forms.NamesDoubles {
					return "a declaration names its doubles only with a doubles: declared setting (VAR-04)"
				}
			default:
				return "a declaration has no field " + name
			}
		}
		if _, here := fields["trump"]; !here || !hasSeat {
			return "a declaration has type, seat and trump"
		}
		if _, text := fields["trump"].(string); !text && !isInteger(fields["trump"]) {
			return "trump is an integer or a string"
		}
		if stacks, here := fields["stacks"]; here && !isInteger(stacks) {
			return "stacks is an integer"
		}
		if doubles, here := fields["doubles"]; here {
			if _, text := doubles.(string); !text {
				return "doubles is a string"
			}
		}
	default:
		return "unknown action type"
	}
	if seat, _ := fields["seat"].(string); seatIndex(Seat(seat)) < 0 {
		return "seat is one of A, B, C, D"
	}
	return ""
}

var tileIndex = func() map[Tile]int {
	index := map[Tile]int{}
	for i, t := range AllTiles() {
		index[t] = i
	}
	return index
}()

type request struct {
	Seq    int64           `json:"seq"`
	Cmd    string          `json:"cmd"`
	Setup  json.RawMessage `json:"setup"`
	Deal   json.RawMessage `json:"deal"`
	Action json.RawMessage `json:"action"`
	Seat   Seat            `json:"seat"`
	Depth  int             `json:"depth"`
}

// Serve answers requests on stdin until stop, one reply per request, in order, each
// echoing its seq. It returns only at stop or the end of input; a crash (an error that
// is not a *Rejected, or a refusal of a command that may not be refused) is written to
// stderr and exits the process with status 1 (protocol.md).
func Serve(info Info, engine Engine) {
	if err := ServeIO(info, engine, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// ServeIO is Serve on other streams; it returns the crash instead of exiting.
func ServeIO(info Info, engine Engine, in io.Reader, out io.Writer) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 1<<16), 1<<26)
	w := bufio.NewWriter(out)
	for lines.Scan() {
		if strings.TrimSpace(lines.Text()) == "" {
			continue
		}
		var req request
		if err := json.Unmarshal(lines.Bytes(), &req); err != nil {
			return fmt.Errorf("bad request: %v", err)
		}
		result, err := dispatch(info, engine, req)
		reply := map[string]any{"seq": req.Seq, "ok": true, "result": result}
		var refused *Rejected
		if errors.As(err, &refused) && (req.Cmd == "setup" || req.Cmd == "deal" || req.Cmd == "act") {
			reply = map[string]any{"seq": req.Seq, "ok": false,
				"error": map[string]string{"code": refused.Code, "message": refused.Message}}
		} else if err != nil {
			return fmt.Errorf("%s: %v", req.Cmd, err)
		}
		text, err := json.Marshal(reply)
		if err != nil {
			return fmt.Errorf("%s: the result is not JSON: %v", req.Cmd, err)
		}
		w.Write(append(text, '\n'))
		if err := w.Flush(); err != nil {
			return err
		}
		if req.Cmd == "stop" {
			return nil
		}
	}
	return lines.Err()
}

func dispatch(info Info, engine Engine, req request) (any, error) {
	switch req.Cmd {
	case "hello":
		hello := map[string]any{"name": info.Name, "version": info.Version,
			"protocol": ProtocolVersion, "variants": nonNil(info.Variants),
			"capabilities": nonNil(info.Capabilities)}
		if info.Spec != "" {
			hello["spec"] = info.Spec
		}
		return hello, nil
	case "setup":
		return nil, engine.Setup(req.Setup)
	case "deal":
		return nil, engine.Deal(req.Deal)
	case "act":
		return nil, engine.Act(req.Action)
	case "view":
		return engine.View()
	case "observe":
		return engine.Observe(req.Seat)
	case "legal":
		if e, ok := engine.(Legaler); ok {
			return e.Legal()
		}
	case "perft":
		if e, ok := engine.(Perfter); ok {
			return e.Perft(req.Depth)
		}
	case "new_match":
		if e, ok := engine.(SelfDealer); ok {
			return nil, e.NewMatch()
		}
	case "next_deal":
		if e, ok := engine.(SelfDealer); ok {
			return nil, e.NextDeal()
		}
	case "stop":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown or undeclared command %q", req.Cmd)
}

func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
