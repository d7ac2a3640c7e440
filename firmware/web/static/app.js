// The table view: one JSON view from /api/view, then every change from /events.
"use strict";
const ANIMALS = ["rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog"];
const GREEN = ["wolf", "cow", "pig", "sheep", "rabbit"];
const RED = ["fox", "horse", "pig", "sheep", "rabbit"];
const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"];
let view = null;
let shown = "";

function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const kid of kids) node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return node;
}
function icon(name) { return el("img", {src: "/icons/" + name + ".svg", alt: name.replace("_", " ")}); }
function fill(id, ...kids) { const n = document.getElementById(id); n.replaceChildren(...kids); return n; }
function frac(text) { const [a, b] = String(text).split("/"); return b ? Number(a) / Number(b) : Number(a); }
function pct(text) { return (100 * frac(text)).toFixed(1) + "%"; }
function name(i) { return (view.names && view.names[i]) || "Farmer " + (i + 1); }

function herd(counts) {
  return el("div", {class: "herd"}, ...ANIMALS.map(a => el("span",
    {class: "animal" + (counts[a] ? "" : " none"), "data-animal": a}, icon(a), counts[a] || 0)));
}

function chart(points, players) {
  if (!points || points.length < 1) return el("p", {}, "no turns yet");
  const w = 300, h = 150, top = Math.max(10, ...points.flat());
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`); svg.setAttribute("class", "chart");
  for (let p = 0; p < players; p++) {
    const line = document.createElementNS(ns, "polyline");
    const step = points.length > 1 ? w / (points.length - 1) : 0;
    line.setAttribute("points", points.map((v, i) => `${(i * step).toFixed(1)},${(h - 4 - (h - 8) * v[p] / top).toFixed(1)}`).join(" "));
    line.setAttribute("fill", "none"); line.setAttribute("stroke", COLOURS[p % COLOURS.length]);
    line.setAttribute("stroke-width", "2.5");
    svg.append(line);
  }
  return el("div", {}, svg, el("div", {}, ...Array.from({length: players}, (_, p) =>
    el("span", {style: `color:${COLOURS[p % COLOURS.length]};margin-right:.6rem`}, "\u25A0 " + name(p)))));
}

const SOURCES = {camera: "read by the camera", buttons: "entered on the buttons", web: "entered on the web"};

// What the reader saw: each die's crop from the camera, the face it read and how sure it was.
function seen(read, title) {
  const pct = Math.round(100 * read.confidence);
  return el("div", {class: "seen"}, ...read.dice.filter(d => d.crop).map(d =>
    el("figure", {class: "crop " + d.die, "data-die": d.die, "data-face": d.face || ""},
      el("img", {src: d.crop, alt: d.die + " die as the camera saw it", width: 72, height: 72}),
      el("figcaption", {}, `${d.face || "?"} \u00b7 ${pct}%`))),
    el("p", {class: "seen-note"}, `${title}: ${read.faces.map(f => f || "?").join(" + ")}, ${pct}% sure (${read.reason})`));
}

function superfarmer(v) {
  document.getElementById("title").textContent = "Super Farmer";
  const who = v.over ? `game over: ${name(v.places[0])} won` : `${name(v.current)}'s turn ${v.turns[v.current] + 1}`;
  document.getElementById("turn").textContent = who + ` \u00b7 record ${v.seq}`;
  fill("farms", ...v.farms.map((f, i) => el("article",
    {class: "farm" + (i === v.current && !v.over ? " current" : "") + (f.complete ? " complete" : ""), "data-farm": i},
    el("h2", {}, el("span", {class: "farm-name"}, name(i)), el("span", {class: "value"}, f.value + " rabbits")),
    herd(f.herd))));
  fill("stock", el("h2", {}, "Main herd"), herd(v.stock));
  const roll = fill("roll", el("h2", {}, "Last roll"));
  if (v.last_roll) {
    const [g, r] = v.last_roll.faces;
    roll.append(el("span", {class: "die green", "data-face": g}, icon(g), g),
                el("span", {class: "die red", "data-face": r}, icon(r), r));
    const by = v.last_roll.by !== null && v.last_roll.by !== undefined ? "by " + name(v.last_roll.by) : "";
    const source = v.last_roll.source ? SOURCES[v.last_roll.source] || v.last_roll.source : "";
    roll.append(el("p", {id: "roll-source", "data-source": v.last_roll.source || ""}, [by, source].filter(Boolean).join(", ")));
    if (v.last_roll.read && v.last_roll.source === "camera") roll.append(seen(v.last_roll.read, "the camera saw"));
  } else roll.append(el("p", {}, "no roll yet"));
  if (v.unsure) {
    roll.append(el("p", {class: "unsure", id: "unsure-read"},
      `unsure read: ${v.unsure.faces.join(" + ")} (${Math.round(100 * v.unsure.confidence)}% sure)`));
    roll.append(seen(v.unsure, "unsure"));
  }
  const alert = document.getElementById("alert");
  alert.hidden = !v.predators.length;
  const victim = v.last_roll && v.last_roll.by !== null ? name(v.last_roll.by) : "the farm";
  const lost = (p) => { const a = p.lost || (p.animal === "fox" ? "rabbit" : ""); return a ? `${p.count} ${a.replace("_", " ")}${p.count === 1 ? "" : "s"}` : "its animals"; };
  alert.textContent = v.predators.map(p => `${p.animal === "fox" ? "Fox" : "Wolf"}! ${victim} lost ${lost(p)}`).join(" \u00b7 ");
  const o = v.odds;
  fill("odds", el("h2", {}, "Odds for " + name(v.current)),
    el("table", {}, el("tr", {}, el("td", {}, "expected gain"), el("td", {}, o.expected_gain.toFixed(2) + " rabbits")),
      el("tr", {}, el("td", {}, "fox"), el("td", {}, pct(o.p_fox))),
      el("tr", {}, el("td", {}, "wolf"), el("td", {}, pct(o.p_wolf))),
      el("tr", {}, el("td", {}, "any loss"), el("td", {}, pct(o.p_loss))),
      el("tr", {}, el("td", {}, "win this roll"), el("td", {}, pct(o.p_win)))),
    el("p", {id: "advice"}, v.advice ? "Advice: " + (v.advice === "roll" ? "just roll" : v.advice.replace("->", " \u2192 ")) : ""));
  fill("chart", el("h2", {}, "Farm value over the turns"), chart(v.chart, v.players));
  document.getElementById("board").hidden = true;
  const unsure = document.getElementById("unsure");
  unsure.hidden = !v.unsure;
  if (v.unsure) document.getElementById("unsure-text").textContent = `The camera is unsure: ${v.unsure.faces.join(" + ")}?`;
}

function cardgame(v) {
  document.getElementById("title").textContent = "Super Farmer: the card game";
  document.getElementById("turn").textContent = (v.over ? "game over" : `round ${v.round}`) + ` \u00b7 record ${v.seq}`;
  for (const id of ["roll", "odds", "stock", "chart"]) document.getElementById(id).hidden = true;
  document.getElementById("alert").hidden = true;
  document.getElementById("board").hidden = false;
  fill("farms", ...v.scores.map((s, i) => el("article", {class: "farm", "data-farm": i},
    el("h2", {}, el("span", {class: "farm-name"}, name(i)), el("span", {class: "value"}, s + " points")))));
  const rows = v.rounds.map((r, n) => el("tr", {class: "round", "data-round": n + 1}, el("td", {}, "round " + (n + 1) + (r.predators.length ? " (" + r.predators.join(", ") + ")" : "")),
    ...r.points.map((p, i) => el("td", {class: "points", "data-seat": i}, `${p} (+${r.cabbage[i]} cabbage)`))));
  fill("board", el("h2", {}, "Rounds"), el("table", {},
    el("tr", {}, el("th", {}, ""), ...v.scores.map((_, i) => el("th", {}, name(i)))), ...rows));
  choices("correct-round", v.rounds.map((_, n) => [n + 1, "round " + (n + 1)]));
  choices("correct-seat", v.scores.map((_, i) => [i, name(i)]));
}

function funfarm(v) {
  document.getElementById("title").textContent = "Fun Farm";
  for (const id of ["roll", "odds", "stock", "chart"]) document.getElementById(id).hidden = true;
  document.getElementById("board").hidden = false;
  const state = v.over ? (v.winner !== null ? `game over: ${name(v.winner)} won` : "game over: a shared win")
    : `round ${v.round} \u00b7 ${v.phase}` + (v.roll ? ` \u00b7 rolled ${v.roll}` : "");
  document.getElementById("turn").textContent = state + ` \u00b7 record ${v.seq}`;
  document.getElementById("alert").hidden = true;
  fill("farms", ...v.scores.map((s, i) => el("article", {class: "farm" + (i === v.farmer ? " current" : ""), "data-farm": i},
    el("h2", {}, el("span", {class: "farm-name"}, name(i)), el("span", {class: "value"}, s + (s === 1 ? " card" : " cards"))))));
  const card = (id) => el("span", {class: "card" + (v.activated.includes(id) ? " activated" : "") + (v.uncaught.includes(id) ? " uncaught" : ""), "data-card": id}, id);
  const races = v.takes.map((t, n) => el("li", {class: "take"},
    `${t.players.map(name).join(" + ")} took ${t.cards.join(", ")}` +
    (t.reaction_ms !== null ? ` in ${t.reaction_ms} ms` : " (awarded)") +
    (t.lead_ms !== null ? `, ${t.lead_ms} ms ahead` : "")));
  fill("board", el("h2", {}, "The circle"),
    v.circle.length ? el("div", {class: "circle"}, ...v.circle.map(card)) : el("p", {}, "no card face up"),
    el("p", {}, `${v.cards_left} cards to turn`),
    el("h2", {}, "This round's races"), races.length ? el("ol", {id: "takes"}, ...races) : el("p", {}, "no race won yet"));
  choices("award-player", v.contenders.map(i => [i, name(i)]));
}

// Fill a <select> with [value, label] pairs, keeping the one chosen when it is still there.
function choices(id, pairs) {
  const select = document.getElementById(id);
  const keep = select.value;
  const text = JSON.stringify(pairs);
  if (select.dataset.choices === text) return;
  select.dataset.choices = text;
  select.replaceChildren(...pairs.map(([v, label]) => el("option", {value: v}, label)));
  if (pairs.some(([v]) => String(v) === keep)) select.value = keep;
}

function render(v) {
  // The first fetch and the event stream may both bring the view already shown: keep the page
  // (and the names being typed) as it is.
  const text = JSON.stringify(v);
  if (text === shown) return;
  shown = text; view = v;
  if (v.starting) { document.getElementById("turn").textContent = "starting\u2026"; return; }
  ({superfarmer, cardgame, funfarm})[v.game](v);
  document.body.dataset.seq = v.seq; document.body.dataset.revision = v.revision;
  const remote = document.getElementById("remote");
  remote.hidden = !v.pin;
  const row = document.getElementById("names-row");
  if (row.childElementCount !== v.names.length) {
    row.replaceChildren(...v.names.map((n, i) => el("input", {class: "name", "data-seat": i, value: n, maxlength: 16, size: 10})));
  }
  for (const row of document.querySelectorAll("[data-game]"))
    row.hidden = !row.dataset.game.split(" ").includes(v.game);
}

async function command(body) {
  body.pin = document.getElementById("pin").value;
  sessionStorage.setItem("pin", body.pin);
  const answer = document.getElementById("answer");
  try {
    const r = await fetch("/api/command", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const j = await r.json();
    answer.textContent = `${r.status}: ${j.message}`;
    answer.dataset.status = r.status;
  } catch (e) { answer.textContent = "no answer: " + e; answer.dataset.status = "0"; }
}

function connect() {
  const live = document.getElementById("live");
  const source = new EventSource("/events");
  source.onopen = () => live.classList.add("on");
  source.onmessage = (e) => render(JSON.parse(e.data));
  source.onerror = () => live.classList.remove("on");  // EventSource reconnects by itself
}

document.addEventListener("DOMContentLoaded", () => {
  for (const [id, faces] of [["green", GREEN], ["red", RED]])
    document.getElementById(id).replaceChildren(...faces.map(f => el("option", {value: f}, f)));
  document.getElementById("pin").value = sessionStorage.getItem("pin") || "";
  document.getElementById("confirm").onclick = () => command({command: "confirm"});
  document.getElementById("send-roll").onclick = () => command({command: "roll",
    green: document.getElementById("green").value, red: document.getElementById("red").value});
  document.getElementById("undo").onclick = () => command({command: "undo"});
  document.getElementById("new-game").onclick = () => command({command: "new_game"});
  document.getElementById("send-award").onclick = () => command({command: "award",
    player: Number(document.getElementById("award-player").value)});
  document.getElementById("send-correct").onclick = () => command({command: "correct",
    round: Number(document.getElementById("correct-round").value),
    seat: Number(document.getElementById("correct-seat").value),
    points: Number(document.getElementById("correct-points").value)});
  document.getElementById("send-names").onclick = () => command({command: "names",
    names: Array.from(document.querySelectorAll("input.name")).map(n => n.value)});
  fetch("/api/view").then(r => r.json()).then(render).finally(connect);
});
