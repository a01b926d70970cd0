// The Guandan 掼蛋 board for the replay viewer (see viewer.js): the levels, the combination on
// the table to beat (its type, rank and cards), and for every seat its cards left, what it
// did in this round (played, passed), its hand when the viewer may see it, and its finishing
// place. Partners sit across (seats 0+2 against 1+3). Suits keep their letters.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var SUITS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
  var RED = { H: true, D: true };
  var ORDER = "23456789TJQKA";

  // "H3" → ♥3, "ST" → ♠10, "SB" → small joker, "HR" → big joker.
  function cardText(code) {
    if (code === "SB") return "\ud83c\udccf small";
    if (code === "HR") return "\ud83c\udccf BIG";
    var suit = SUITS[code.charAt(0)] || code.charAt(0);
    var r = code.slice(1);
    return suit + (r === "T" ? "10" : r);
  }

  function cardEl(code) {
    var red = RED[code.charAt(0)] || code === "HR";
    return el("span", { class: "gd-card" + (red ? " gd-red" : ""), title: code, text: cardText(code) });
  }

  function value(code) {
    if (code === "SB") return 98;
    if (code === "HR") return 99;
    return ORDER.indexOf(code.slice(1));
  }

  function cards(list) {
    var row = el("span", { class: "gd-cards" });
    (list || []).slice().sort(function (a, b) { return value(a) - value(b) || (a < b ? -1 : 1); })
      .forEach(function (c) { row.appendChild(cardEl(c)); });
    return row;
  }

  // ["Bomb", "K", ["SK", …]] → "Bomb of K: ♠K …"
  function combo(action) {
    if (!action || !Array.isArray(action)) return null;
    if (action[0] === "PASS" || action === "PASS") return el("span", { class: "muted", text: "pass" });
    return el("span", {}, [el("strong", { text: action[0] + " " + action[1] + " " }), cards(action[2])]);
  }

  function area(info) {
    if (!info) return null;
    var a = info.play_area;
    if (a === "passed") return el("span", { class: "muted", text: "passed" });
    if (a === "cleared" || a === null || a === undefined) return el("span", { class: "muted", text: "\u2014" });
    if (a.played) return combo(a.played);
    return el("span", { text: JSON.stringify(a) });
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    box.appendChild(el("p", { class: "gd-head" }, [
      el("strong", { text: "Deal " + (obs.deal || 1) }),
      " \u00b7 playing level " + (obs.cur_rank || "?") + " \u00b7 stage " + (obs.stage || "?") +
        (obs.finished && obs.finished.length ? " \u00b7 out: " + obs.finished.map(function (s) { return ctx.name(s); }).join(", ") : "")
    ]));
    var beat = el("div", { class: "gd-table" }, [el("span", { class: "muted", text: "To beat: " })]);
    if (obs.greater_action) {
      beat.appendChild(combo(obs.greater_action));
      if (obs.greater_pos !== null && obs.greater_pos !== undefined) beat.appendChild(el("span", { class: "muted", text: " by " + ctx.name(obs.greater_pos) }));
    } else {
      beat.appendChild(el("span", { class: "muted", text: "nothing: a free lead" }));
    }
    box.appendChild(beat);

    var list = el("div", { class: "rv-players" });
    var info = obs.public_info || [];
    for (var seat = 0; seat < 4; seat++) {
      var hand = obs.hands ? obs.hands[seat] : (obs.my_pos === seat ? obs.hand_cards : null);
      var place = (obs.finished || []).indexOf(seat);
      var tags = [seat % 2 === 0 ? "team 0+2" : "team 1+3"].concat(place >= 0 ? ["out #" + (place + 1)] : []);
      list.appendChild(ctx.player(seat, { onTurn: obs.to_act === seat, tags: tags }, [
        el("div", { class: "muted", text: ctx.count((info[seat] || {}).rest !== undefined ? info[seat].rest : (hand || []).length, "card") + " left" }),
        el("div", { class: "gd-area" }, [el("span", { class: "muted", text: "This round: " }), area(info[seat])]),
        hand ? el("div", { class: "gd-hand" }, [cards(hand)]) : el("div", { class: "muted", text: "hand hidden" })
      ]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("guandan", { draw: draw });
})();
