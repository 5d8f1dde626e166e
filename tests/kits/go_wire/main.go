// The Go kit's wire types as an engine uses them (tests/kits/test_go_kit.py runs this):
// each stdin line, {"as": "action" or "setup", "json": ...}, decoded by t42.Strict and
// written back, or {"refused": "CODE: why"}; then a view and an observation built in Go
// with a declared contract, each on a line of its own, for the schemas to judge.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	t42 "t42kit"
)

func main() {
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		var in struct {
			As   string
			JSON json.RawMessage
		}
		if err := json.Unmarshal(lines.Bytes(), &in); err != nil {
			panic(err)
		}
		var err error
		var value any
		if in.As == "action" {
			var action t42.Action
			err, value = t42.Strict(in.JSON, &action, t42.MALFORMED_ACTION), &action
		} else {
			var setup t42.Setup
			err, value = t42.Strict(in.JSON, &setup, t42.INVALID_SETUP), &setup
		}
		if err != nil {
			value = map[string]string{"refused": err.Error()}
		}
		write(value)
	}
	write(view())
	write(observation())
}

func write(value any) {
	text, err := json.Marshal(value)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))
}

func ptr[T any](v T) *T { return &v }

var bids = []t42.Action{
	{Type: t42.ActionTypeBid, Seat: t42.B, Points: ptr[int64](30)},
	{Type: t42.ActionTypePass, Seat: t42.C},
	{Type: t42.ActionTypePass, Seat: t42.D},
	{Type: t42.ActionTypePass, Seat: t42.A},
}

var contract = &t42.Contract{
	Bid: t42.ContractBid{Points: ptr[int64](30)}, Declarer: t42.B, Team: t42.BD, Stake: 1,
	Trump: &t42.ContractTrump{Integer: ptr[int64](6)}, Stacks: nil,
}

func view() t42.View {
	return t42.View{
		Phase: t42.PhasePlaying, Round: 1, Dealer: t42.A, ToAct: ptr(t42.B), Contract: contract,
		Hands: t42.ViewHands{A: hand(0), B: hand(7), C: hand(14), D: hand(21)},
		Bids:  bids, History: append(bids, t42.Action{Type: t42.ActionTypeTrump, Seat: t42.B,
			Trump: &t42.ActionTrump{Integer: ptr[int64](6)}}),
		Trick: []t42.TrickPlay{}, Tricks: []t42.Trick{},
	}
}

func observation() t42.Observation {
	return t42.Observation{
		Seat: t42.C, Phase: t42.PhasePlaying, Round: 1, Dealer: t42.A, ToAct: ptr(t42.B),
		Contract: contract, Hand: hand(14), HandSizes: t42.HandSizes{A: 7, B: 7, C: 7, D: 7},
		Bids: bids, History: bids, Trick: []t42.TrickPlay{}, Captured: []t42.Captured{},
		Points: &t42.TeamPoints{},
	}
}

func hand(from int) []t42.Tile { return t42.AllTiles()[from : from+7] }
