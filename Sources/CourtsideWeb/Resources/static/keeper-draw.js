// The keeper page's lists, drawn from the view's words as they are (keeper.js decides what each
// line offers, and has the page's words): the players' buttons, the outbox's lines and the
// game's last plays, and when the page is drawn (`frame`).
window.courtsideKeeperDraw = (function () {
  "use strict";
  const el = window.courtsideBind.el, text = window.courtsideBind.text;  // bind.js

  function playerButton(p, selected) {
    const b = el("button", "player");
    b.type = "button";
    b.dataset.player = p.id;
    b.setAttribute("aria-pressed", String(p.id === selected));
    b.setAttribute("aria-label", p.label);
    b.disabled = !p.isActive;
    b.append(el("span", "who", p.name), el("span", "counts", p.inactiveText || p.countsText));
    const li = el("li");
    li.append(b);
    return li;
  }

  // A team's players into `list`. The same buttons stay while the game's players do: a finger
  // on one is never lost to a redraw.
  function players(list, lines, selected) {
    const buttons = [...list.querySelectorAll("button[data-player]")];
    if (buttons.map((b) => b.dataset.player).join("\n") !== lines.map((p) => p.id).join("\n")) {
      list.replaceChildren(...lines.map((p) => playerButton(p, selected)));
      return;
    }
    lines.forEach((p, i) => {
      text(buttons[i].querySelector(".who"), p.name);
      text(buttons[i].querySelector(".counts"), p.inactiveText || p.countsText);
      buttons[i].disabled = !p.isActive;
      buttons[i].setAttribute("aria-pressed", String(p.id === selected));
      if (buttons[i].getAttribute("aria-label") !== p.label) buttons[i].setAttribute("aria-label", p.label);
    });
  }

  // A line's button, `offered` as {text, label, click}.
  function button(offered) {
    const b = el("button", "undo", offered.text);
    b.type = "button";
    if (offered.label) b.setAttribute("aria-label", offered.label);
    b.addEventListener("click", offered.click);
    return b;
  }

  // An outbox entry's line: what was tapped, its state as shown ("queued", "confirmed",
  // "refused") and that state's word, and its button if it offers one.
  function tapItem(e, state, stateWord, offered) {
    const li = el("li");
    li.dataset.id = e.id;
    li.dataset.state = state;
    const what = el("span", "what", e.label);
    if (state === "refused") what.append(el("span", "why", e.message));
    li.append(what, el("span", "state", stateWord));
    if (offered) li.append(button(offered));
    return li;
  }

  // One of the game's last plays (a PlayLine), with its undo if it offers one.
  function playItem(p, offered) {
    const li = el("li", p.side + (p.isUndone ? " undone" : ""));
    li.dataset.version = p.version;
    li.append(el("span", "what", p.listText), el("span", "team", p.teamName));
    if (offered) li.append(button(offered));
    return li;
  }

  // `items` ({key, drawn, make}) as `list`'s children, in their order. A line whose key and
  // `drawn` (what it shows, as a string) are as before keeps its element: a draw then costs the
  // lines that changed, not every line (80 outbox lines rebuilt at each draw took 4 ms a tap of
  // the page's time in Chromium, and a finger on an Undo is never lost to a redraw).
  function keyed(list, items) {
    const before = drawnLines.get(list) || new Map(), after = new Map();
    const nodes = items.map((item) => {
      const old = before.get(item.key);
      const node = old && old.drawn === item.drawn ? old.node : item.make();
      after.set(item.key, { drawn: item.drawn, node });
      return node;
    });
    drawnLines.set(list, after);
    // The lines that go leave first, so that each new one is one insertion, not a move of every
    // line after it.
    const staying = new Set(nodes);
    for (const child of [...list.children]) if (!staying.has(child)) child.remove();
    nodes.forEach((node, i) => { if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null); });
  }
  const drawnLines = new WeakMap();

  // One line of `list` ({key, drawn, make}, as `keyed` takes it) drawn at once, the others left
  // as they are: one whose `drawn` changed is made again in its place; one not in the list yet
  // goes first when `first` (the outbox's newest line), else waits for the list's next `keyed`.
  function line(list, item, first) {
    const drawn = drawnLines.get(list) || new Map(), old = drawn.get(item.key);
    if ((old && old.drawn === item.drawn) || (!old && !first)) return;
    const node = item.make();
    if (old) old.node.replaceWith(node);
    else list.prepend(node);
    drawn.set(item.key, { drawn: item.drawn, node });
    drawnLines.set(list, drawn);
  }

  // `work` as a function that runs it at the next animation frame, once for every call before
  // it: what a draw writes shows at that frame anyway, and the keeper page's whole draw for a
  // tap, its event on the stream and its answer each (1.5-2.4 ms of script a tap in Chromium,
  // and the style and layout each left to do) held up the answer to the next tap. Hidden, a
  // page has no frames: a timer runs it.
  function frame(work) {
    let pending = null;
    const run = () => { cancelAnimationFrame(pending.frame); clearTimeout(pending.timer); pending = null; work(); };
    return () => { if (!pending) pending = { frame: requestAnimationFrame(run), timer: setTimeout(run, 100) }; };
  }

  return { players, tapItem, playItem, keyed, line, frame };
})();
