// The Guandan 掼蛋 board for the replay viewer (see viewer.js): the levels, the combination on
// the table to beat (its type, rank and cards), and for every seat its cards left, what it
// did in this round (played, passed), its hand when the viewer may see it, and its finishing
// place. Partners sit across (seats 0+2 against 1+3). Suits keep their letters.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var t = window.CroupierViewer.t;
  var SUITS = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
  var RED = { H: true, D: true };
  var ORDER = "23456789TJQKA";

  // "H3" → ♥3, "ST" → ♠10, "SB" → small joker, "HR" → big joker.
  function cardText(code) {
    if (code === "SB") return "\ud83c\udccf " + t("viewer-guandan-small-joker", "small");
    if (code === "HR") return "\ud83c\udccf " + t("viewer-guandan-big-joker", "BIG");
    var suit = SUITS[code.charAt(0)] || code.charAt(0);
    var r = code.slice(1);
    return suit + (r === "T" ? "10" : r);
  }

  function cardEl(code) {
    var red = RED[code.charAt(0)] || code === "HR";
    return el("span", { class: "gd-card" + (red ? " gd-red" : ""), title: cardText(code), "data-card": code, text: cardText(code) });
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
    if (action[0] === "PASS" || action === "PASS") return el("span", { class: "muted", text: t("viewer-guandan-pass", "pass") });
    return el("span", {}, [el("strong", { text: kind(action[0]) + " " + action[1] + " " }), cards(action[2])]);
  }

  // A combination type in the page's language (the protocol's name in English).
  function kind(type) {
    var names = {
      Single: t("viewer-guandan-single", "Single"),
      Pair: t("viewer-guandan-pair", "Pair"),
      Trips: t("viewer-guandan-trips", "Trips"),
      ThreePair: t("viewer-guandan-three-pair", "ThreePair"),
      ThreeWithTwo: t("viewer-guandan-three-with-two", "ThreeWithTwo"),
      TwoTrips: t("viewer-guandan-two-trips", "TwoTrips"),
      Straight: t("viewer-guandan-straight", "Straight"),
      StraightFlush: t("viewer-guandan-straight-flush", "StraightFlush"),
      Bomb: t("viewer-guandan-bomb", "Bomb"),
      tribute: t("viewer-guandan-tribute", "tribute"),
      back: t("viewer-guandan-back", "back")
    };
    return Object.prototype.hasOwnProperty.call(names, type) ? names[type] : type;
  }

  function area(info) {
    if (!info) return null;
    var a = info.play_area;
    if (a === "passed") return el("span", { class: "muted", text: t("viewer-guandan-passed", "passed") });
    if (a === "cleared" || a === null || a === undefined) return el("span", { class: "muted", text: "\u2014" });
    if (a.played) return combo(a.played);
    return el("span", { text: JSON.stringify(a) });
  }

  function cardsLeft(n, ctx) {
    return t("viewer-guandan-cards-left", ctx.count(n, "card") + " left", { n: n });
  }

  // The stage's name in the page's language (the protocol's word in English).
  function stage(name) {
    var names = {
      play: t("viewer-guandan-stage-play", "play"),
      tribute: t("viewer-guandan-stage-tribute", "tribute"),
      back: t("viewer-guandan-stage-back", "back"),
      over: t("viewer-guandan-stage-over", "over")
    };
    if (!name) return "?";
    return Object.prototype.hasOwnProperty.call(names, name) ? names[name] : name;
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    box.appendChild(el("p", { class: "gd-head" }, [
      el("strong", { text: t("viewer-guandan-deal", "Deal {deal}", { deal: obs.deal || 1 }) }),
      " \u00b7 " + t("viewer-guandan-level", "playing level {level}", { level: obs.cur_rank || "?" }) +
        " \u00b7 " + t("viewer-guandan-stage", "stage {stage}", { stage: stage(obs.stage) }) +
        (obs.finished && obs.finished.length ? " \u00b7 " + t("viewer-guandan-out", "out: {seats}", { seats: obs.finished.map(function (s) { return ctx.name(s); }).join(", ") }) : "")
    ]));
    var beat = el("div", { class: "gd-table" }, [el("span", { class: "muted", text: t("viewer-guandan-to-beat", "To beat:") + " " })]);
    if (obs.greater_action) {
      beat.appendChild(combo(obs.greater_action));
      if (obs.greater_pos !== null && obs.greater_pos !== undefined) beat.appendChild(el("span", { class: "muted", text: " " + t("viewer-guandan-by", "by {who}", { who: ctx.name(obs.greater_pos) }) }));
    } else {
      beat.appendChild(el("span", { class: "muted", text: t("viewer-guandan-free-lead", "nothing: a free lead") }));
    }
    box.appendChild(beat);

    var list = el("div", { class: "rv-players" });
    var info = obs.public_info || [];
    for (var seat = 0; seat < 4; seat++) {
      var hand = obs.hands ? obs.hands[seat] : (obs.my_pos === seat ? obs.hand_cards : null);
      var place = (obs.finished || []).indexOf(seat);
      var tags = [seat % 2 === 0 ? t("viewer-guandan-team-02", "team 0+2") : t("viewer-guandan-team-13", "team 1+3")]
        .concat(place >= 0 ? [t("viewer-guandan-out-place", "out #{place}", { place: place + 1 })] : []);
      list.appendChild(ctx.player(seat, { onTurn: obs.to_act === seat, tags: tags }, [
        el("div", { class: "muted", text: cardsLeft((info[seat] || {}).rest !== undefined ? info[seat].rest : (hand || []).length, ctx) }),
        el("div", { class: "gd-area" }, [el("span", { class: "muted", text: t("viewer-guandan-this-round", "This round:") + " " }), area(info[seat])]),
        hand ? el("div", { class: "gd-hand", "data-seat": seat }, [cards(hand)]) : el("div", { class: "muted", text: t("viewer-guandan-hand-hidden", "hand hidden") })
      ]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("guandan", { draw: draw });
})();
