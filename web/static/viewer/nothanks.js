// The No Thanks board for the replay viewer (see viewer.js): the card on offer and its chips,
// the deck, and each player's cards grouped as runs (only a run's lowest card counts), coins
// ("?" when the observation does not show them) and score (card points minus coins; lower is
// better).
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var t = window.CroupierViewer.t;

  // [3, 4, 5, 9, 11, 12] → [[3, 4, 5], [9], [11, 12]]
  function runs(cards) {
    var sorted = (cards || []).slice().sort(function (a, b) { return a - b; });
    var out = [];
    sorted.forEach(function (c) {
      var run = out[out.length - 1];
      if (run && c === run[run.length - 1] + 1) run.push(c);
      else out.push([c]);
    });
    return out;
  }

  function card(n, cls) {
    return el("span", { class: "nt-card " + (cls || ""), text: n });
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    var players = obs.players || [];
    var table = el("div", { class: "nt-table" });
    if (obs.field_card !== null && obs.field_card !== undefined) {
      table.appendChild(el("div", { class: "nt-offer" }, [
        el("span", { class: "nt-offered", "data-offer": obs.field_card }, [card(obs.field_card, "nt-big")]),
        el("span", { class: "nt-chips", text: "\u25cf " + t("viewer-nothanks-chips-on-it", ctx.count(obs.field_coins || 0, "chip") + " on it", { n: obs.field_coins || 0 }) })
      ]));
    } else {
      table.appendChild(el("p", { class: "nt-offer", text: obs.end ? t("viewer-nothanks-over", "Game over: no card on offer.") : t("viewer-nothanks-no-offer", "No card on offer.") }));
    }
    table.appendChild(el("p", { class: "muted", text: t("viewer-nothanks-face-down", ctx.count(obs.deck_count || 0, "card") + " face down", { n: obs.deck_count || 0 }) }));
    if (obs.hidden) {
      table.appendChild(el("p", { class: "muted rv-hidden" }, [
        t("viewer-nothanks-hidden-next", "Hidden (omniscient view): next") + " ",
        (obs.hidden.deck || []).slice(0, 8).join(", ") + ((obs.hidden.deck || []).length > 8 ? ", \u2026" : "") || t("viewer-none", "none"),
        "; " + t("viewer-nothanks-set-aside", "set aside") + " ", (obs.hidden.removed || []).join(", ") || t("viewer-none", "none")
      ]));
    }
    box.appendChild(table);

    var list = el("div", { class: "rv-players" });
    var count = Math.max(players.length, ctx.players.length);
    for (var seat = 0; seat < count; seat++) {
      var p = players[seat] || {};
      var onTurn = obs.to_act === seat;
      var coins = typeof p.coins === "number" ? p.coins : "?";
      var hand = el("div", { class: "nt-hand" });
      var groups = runs(p.cards);
      if (groups.length === 0) hand.appendChild(el("span", { class: "muted", text: t("viewer-no-cards", "no cards") }));
      groups.forEach(function (run) {
        hand.appendChild(el("span", { class: "nt-run", title: t("viewer-nothanks-counts", "counts {card}", { card: run[0] }) }, run.map(function (c, i) {
          return card(c, i === 0 ? "nt-counts" : "nt-free");
        })));
      });
      list.appendChild(ctx.player(seat, { onTurn: onTurn, score: [t("viewer-score", "score") + " ", ctx.scoreCell(seat, p.points)] }, [
        el("div", { class: "muted", text: "\u25cf " + t("viewer-nothanks-coins", ctx.count(coins, "coin"), { n: coins }) + " \u00b7 " + t("viewer-cards", ctx.count((p.cards || []).length, "card"), { n: (p.cards || []).length }) }),
        hand
      ]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("nothanks", { draw: draw });
})();
