// The enrollment page: polls the state, shows the camera's picture (with the PIN) and sends
// the owner's actions. Everything goes through the box's own enrollment session.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const KIND = {"cards": ["Enroll the cards", "card"], "colour-dice": ["Enroll the colour dice", "die, this colour up,"],
                "dice": ["Enroll the dice", "die, this face up,"]};
  let state = null;
  let previewUrl = null;
  let previewBusy = false;

  function pin() { return $("pin").value.trim(); }

  function doing(s) {
    switch (s.phase) {
      case "clear": return "Clear the table: nothing on it. Take a photo of the empty table.";
      case "prompt": return `Put this ${KIND[s.kind][1]} alone on the table, then Take:`;
      case "capture": return "Taking the photo: hands off the table.";
      case "review": return "Keep this photo, or retake it.";
      case "error": return "That did not work:";
      case "build": return "Learning from the photos...";
      case "check": return "Learned. The check of the photos found weak ones:";
      case "done": return "Enrolled: the model is written.";
      case "quit": return "Enrollment cancelled on the box.";
      default: return s.phase;
    }
  }

  function render(s) {
    state = s;
    document.body.dataset.phase = s.phase;
    document.body.dataset.done = s.done;
    $("title").textContent = KIND[s.kind][0];
    $("count").textContent = `${s.done}/${s.total}`;
    $("doing").textContent = doing(s);
    $("next").textContent = s.clear ? "the empty table" :
      (s.step ? `${s.step.name} (photo ${s.step.number} of ${s.step.of})` : "");
    const key = s.picture && s.step ? `${s.step.label}` : "";
    if ($("picture").dataset.key !== key) {
      $("picture").dataset.key = key;
      $("picture").hidden = !key;
      if (key) $("picture").src = `/enroll/picture.png?card=${encodeURIComponent(key)}`;
    }
    $("bar").style.width = `${Math.round(100 * (s.phase === "build" ? s.fraction : s.done / Math.max(1, s.total)))}%`;
    $("error").hidden = !s.error;
    $("error").textContent = s.error ? `${s.error}${s.detail ? ": " + s.detail : ""}` : "";
    const weak = $("weak");
    weak.replaceChildren(...s.weak.map((n) => { const li = document.createElement("li"); li.textContent = n; return li; }));
    $("weak-box").hidden = !(s.weak.length && (s.phase === "check" || s.phase === "prompt" || s.phase === "done"));
    $("learned").hidden = !s.learned;
    if (s.learned) $("learned").textContent = `${s.learned.photos} photos, learned in ${s.learned.seconds} s.`;
    for (const b of document.querySelectorAll("button[data-action]")) {
      b.disabled = !s.actions.includes(b.dataset.action);
      b.hidden = b.disabled && ["redo", "finish", "keep"].includes(b.dataset.action);
    }
  }

  async function poll() {
    try {
      const r = await fetch("/enroll/api/state", {cache: "no-store"});
      render(await r.json());
    } catch (e) { /* the box is busy or gone: try again */ }
    setTimeout(poll, 400);
  }

  async function preview() {
    if (pin() && !previewBusy) {
      previewBusy = true;
      try {
        const r = await fetch("/enroll/preview.jpg", {headers: {"X-Farmbox-Pin": pin()}, cache: "no-store"});
        if (r.ok) {
          const url = URL.createObjectURL(await r.blob());
          $("preview").src = url;
          if (previewUrl) URL.revokeObjectURL(previewUrl);
          previewUrl = url;
          $("preview").hidden = false;
          $("no-preview").hidden = true;
          const found = r.headers.get("X-Found") === "1";
          $("found").hidden = !(state && ["prompt", "review"].includes(state.phase));
          $("found").textContent = found ? "found" : "nothing found";
          $("found").dataset.found = found ? "1" : "0";
        } else if (r.status === 403 || r.status === 429) {
          const j = await r.json();
          $("no-preview").textContent = j.message;
          $("no-preview").hidden = false;
          $("preview").hidden = true;
          $("pin").dataset.refused = "1";
        }
      } catch (e) { /* next time */ }
      previewBusy = false;
    }
    setTimeout(preview, $("pin").dataset.refused ? 3000 : 500);
  }

  async function send(action) {
    const answer = $("answer");
    try {
      const r = await fetch("/enroll/api/action", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({pin: pin(), action})});
      const j = await r.json();
      answer.textContent = `${r.status}: ${j.message}`;
      answer.dataset.status = r.status;
    } catch (e) { answer.textContent = "no answer: " + e; answer.dataset.status = "0"; }
  }

  for (const b of document.querySelectorAll("button[data-action]")) {
    b.addEventListener("click", () => send(b.dataset.action));
  }
  $("pin").addEventListener("input", () => { delete $("pin").dataset.refused; });
  poll();
  preview();
})();
