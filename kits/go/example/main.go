// An example adapter around a tiny engine that deals and goes no further: it checks a
// setup (INVALID_SETUP), deals it (DEAL-02), shows the view and observations of the
// opening, and refuses every action. Build and run it:
//
//	go build -o example-adapter ./example
//	t42 run scenarios/deal/order-dealer-a.yaml --adapter cmd:./example-adapter
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
}

func (e *engine) Setup(raw json.RawMessage) error {
	var setup t42.SetupClass
	if err := t42.Strict(raw, &setup, t42.INVALID_SETUP); err != nil {
		return err
	}
	if setup.Dealer == nil || t42.NextSeat(*setup.Dealer) == "" || len(setup.Draws) > 0 || setup.Variants != nil && *setup.Variants != (t42.Variants{}) {
		return t42.Reject(t42.INVALID_SETUP, "a dealer, and the base game only")
	}
	var hands map[t42.Seat][]t42.Tile
	all := setup.Order
	switch {
	case setup.Hands != nil && setup.Order == nil:
		h := setup.Hands
		hands = map[t42.Seat][]t42.Tile{t42.A: h.A, t42.B: h.B, t42.C: h.C, t42.D: h.D}
		all = nil
		for _, s := range t42.Seats {
			if len(hands[s]) != 7 {
				return t42.Reject(t42.INVALID_SETUP, "seat %s has %d tiles, not 7", s, len(hands[s]))
			}
			all = append(all, hands[s]...)
		}
	case setup.Order != nil && setup.Hands == nil:
		hands = t42.DealOrder(setup.Order, *setup.Dealer)
	default:
		return t42.Reject(t42.INVALID_SETUP, "give exactly one of hands and order")
	}
	if !theTiles(all) {
		return t42.Reject(t42.INVALID_SETUP, "not the 28 tiles")
	}
	marks := t42.ObservationMarks{}
	if setup.Marks != nil {
		if setup.Marks.AC < 0 || setup.Marks.AC > 6 || setup.Marks.Bd < 0 || setup.Marks.Bd > 6 {
			return t42.Reject(t42.INVALID_SETUP, "marks are 0..6")
		}
		marks = t42.ObservationMarks{AC: setup.Marks.AC, Bd: setup.Marks.Bd}
	}
	e.dealer, e.hands, e.marks = *setup.Dealer, hands, marks // checked: now change
	t42.Log("dealt by %s", e.dealer)                         // logs go to stderr
	return nil
}

func theTiles(all []t42.Tile) bool {
	seen := map[t42.Tile]bool{}
	for _, t := range all {
		seen[t] = true
	}
	for _, t := range t42.AllTiles() {
		if !seen[t] {
			return false
		}
	}
	return len(all) == 28 && len(seen) == 28
}

func (e *engine) Deal(json.RawMessage) error {
	return t42.Reject(t42.WRONG_PHASE, "a deal waits for round_over")
}

func (e *engine) Act(json.RawMessage) error {
	return t42.Reject(t42.WRONG_PHASE, "this engine only deals")
}

func (e *engine) View() (any, error) {
	toAct := t42.NextSeat(e.dealer)
	return t42.ViewClass{
		Phase: t42.Bidding, Round: 1, Dealer: e.dealer, ToAct: &toAct,
		Hands: t42.ViewHands{A: e.hands[t42.A], B: e.hands[t42.B], C: e.hands[t42.C], D: e.hands[t42.D]},
		Bids:  []t42.Action{}, Trick: []t42.TrickElement{}, Tricks: []t42.Trick{},
		History: []t42.Action{}, Marks: e.marks,
	}, nil
}

func (e *engine) Observe(seat t42.Seat) (any, error) {
	toAct := t42.NextSeat(e.dealer)
	return t42.Observation{
		Seat: seat, Phase: t42.Bidding, Round: 1, Dealer: e.dealer, ToAct: &toAct,
		Hand:      e.hands[seat],
		HandSizes: t42.HandSizes{A: 7, B: 7, C: 7, D: 7},
		Bids:      []t42.Action{}, Trick: []t42.TrickElement{}, Captured: []t42.Captured{},
		Points: &t42.PointsClass{}, Marks: e.marks,
	}, nil
}

func main() {
	info := t42.Info{Name: "tiny-dealer-go", Version: "0.1.0"}
	t42.Serve(info, &engine{})
}
