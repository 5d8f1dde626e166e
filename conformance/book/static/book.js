// The scenario book: filters on the scenario list; a failing scenario opens at its step.
"use strict";

function applyFilters() {
  const form = document.getElementById("filters");
  if (!form) return;
  const value = (name) => {
    const field = form.elements.namedItem(name);
    return field ? field.value.trim() : "";
  };
  const q = value("q").toLowerCase();
  const wanted = { areas: value("area"), variants: value("variant"), codes: value("code") };
  const outcome = value("outcome");
  const rows = document.querySelectorAll("#scenarios tr.scenario");
  let shown = 0;
  rows.forEach((row) => {
    let ok = !q || row.dataset.text.includes(q);
    for (const [key, want] of Object.entries(wanted)) {
      if (ok && want) ok = row.dataset[key].split(" ").includes(want);
    }
    if (ok && outcome) ok = row.dataset.outcome === outcome;
    row.hidden = !ok;
    if (ok) shown += 1;
  });
  document.getElementById("shown").textContent = `${shown} of ${rows.length} shown`;
  document.getElementById("none").hidden = shown !== 0;
  const params = new URLSearchParams();
  for (const name of ["q", "area", "variant", "code", "outcome"]) {
    if (value(name)) params.set(name, value(name));
  }
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}${location.hash}` : location.pathname + location.hash);
}

function setUpFilters() {
  const form = document.getElementById("filters");
  if (!form) return;
  const params = new URLSearchParams(location.search);
  for (const [name, value] of params) {
    const field = form.elements.namedItem(name);
    if (field) field.value = value;
  }
  form.addEventListener("input", applyFilters);
  form.addEventListener("change", applyFilters);
  applyFilters();
}

function openAtFailure() {
  if (location.hash || !document.body.classList.contains("has-failure")) return;
  const failed = document.querySelector(".frame.failed") || document.querySelector(".frame.unjudged");
  if (failed) {
    history.replaceState(null, "", `#${failed.id}`);
    failed.scrollIntoView();
  }
}

document.addEventListener("DOMContentLoaded", () => {
  setUpFilters();
  openAtFailure();
});
