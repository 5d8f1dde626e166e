// An example adapter around a tiny engine that deals and goes no further: it checks a
// setup (t42.CheckSetup: INVALID_SETUP), deals it (DEAL-02), shows the view and
// observations of the opening, and refuses every action. Build and run it:
//
//	go build -o example-adapter ./example
//	t42 run -k deal.order-dealer --variant base --adapter cmd:./example-adapter
//
// Replace the engine with your own; keep the mapping.
package main

import (
	"encoding/json"

	t42 "t42kit"
)

type engine struct {
	dealer t42.Seat
	hands  map[t42.Seat][]t42.Tile
	marks  t42.ObservationMarks
	forms  t42.ActionForms // the action forms of the options in force
}

func (e *engine) Setup(raw json.RawMessage) error {
	var setup t42.Setup
	if err := t42.Strict(raw, &setup, t42.INVALID_SETUP); err != nil {
		return err
	}
	if setup.Variants != nil && *setup.Variants != (t42.Variants{}) {
		return t42.Reject(t42.INVALID_SETUP, "the base game only")
	}
	dealer, marks, hands, err := t42.CheckSetup(setup) // dealer, marks, hands or order
	if err != nil {
		return err
	}
	e.dealer, e.hands = dealer, hands // checked: now change
	e.forms = t42.FormsOf(setup.Variants)
	e.marks = t42.ObservationMarks{AC: marks.AC, BD: marks.BD}
	t42.Log("dealt by %s", e.dealer) // logs go to stderr
	return nil
}

func (e *engine) Deal(json.RawMessage) error {
	return t42.Reject(t42.WRONG_PHASE, "a deal waits for round_over")
}

func (e *engine) Act(raw json.RawMessage) error {
	if _, err := t42.CheckAction(raw, e.forms); err != nil {
		return err // MALFORMED_ACTION first (DIG-01)
	}
	return t42.Reject(t42.WRONG_PHASE, "this engine only deals")
}

func (e *engine) View() (any, error) {
	toAct := t42.NextSeat(e.dealer)
	return t42.View{
		Phase: t42.PhaseBidding, Round: 1, Dealer: e.dealer, ToAct: &toAct,
		Hands: t42.ViewHands{A: e.hands[t42.A], B: e.hands[t42.B], C: e.hands[t42.C], D: e.hands[t42.D]},
		Bids:  []t42.Action{}, Trick: []t42.TrickPlay{}, Tricks: []t42.Trick{},
		History: []t42.Action{}, Marks: e.marks,
	}, nil
}

func (e *engine) Observe(seat t42.Seat) (any, error) {
	toAct := t42.NextSeat(e.dealer)
	return t42.Observation{
		Seat: seat, Phase: t42.PhaseBidding, Round: 1, Dealer: e.dealer, ToAct: &toAct,
		Hand:      e.hands[seat],
		HandSizes: t42.HandSizes{A: 7, B: 7, C: 7, D: 7},
		Bids:      []t42.Action{}, Trick: []t42.TrickPlay{}, Captured: []t42.Captured{},
		Points: &t42.TeamPoints{}, Marks: e.marks,
	}, nil
}

func main() {
	info := t42.Info{Name: "tiny-dealer-go", Version: "0.1.0"}
	t42.Serve(info, &engine{})
}
