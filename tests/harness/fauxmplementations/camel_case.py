"""Names a view's field in camelCase (`toAct` for `to_act`), as hand-typed wire forms do."""

from _faux import Faux, serve_faux


class CamelCase(Faux):
    def view(self):
        view = super().view()
        view["toAct"] = view.pop("to_act")
        return view


serve_faux(CamelCase())
