// A module of its own that uses the kit as an engine's module would: by a replace.
module kitforms

go 1.19

require t42kit v0.0.0

replace t42kit => ../../../kits/go
