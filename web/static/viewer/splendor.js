// The Splendor board for the replay viewer (see viewer.js): the gem bank, the nobles, the three
// card rows with their decks, and each player's points, gems, bonuses, reserved cards (face
// down when the observation does not show them) and nobles. Every gem colour also has a letter.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var GEMS = [
    ["white", "W"], ["blue", "U"], ["green", "G"], ["red", "R"], ["black", "K"], ["gold", "\u2605"]
  ];

  // Gems with a count, `{white: 2, …}` → chips; zeros left out unless `all`.
  function gems(counts, all, label) {
    var row = el("span", { class: "sp-gems", "aria-label": label || null });
    GEMS.forEach(function (g) {
      var n = counts && counts[g[0]] || 0;
      if (!n && !all) return;
      row.appendChild(el("span", { class: "sp-gem sp-" + g[0], title: n + " " + g[0] }, [
        el("b", { text: g[1] }), String(n)
      ]));
    });
    if (!row.firstChild) row.appendChild(el("span", { class: "muted", text: "none" }));
    return row;
  }

  function card(c) {
    if (!c || !c.color) {
      return el("div", { class: "sp-card sp-back", title: "face down" }, [
        el("span", { text: c && c.level ? "level " + c.level : "face down" })
      ]);
    }
    var letter = (GEMS.filter(function (g) { return g[0] === c.color; })[0] || ["", "?"])[1];
    return el("div", { class: "sp-card", title: "level " + c.level + " " + c.color + " card, " + (c.points || 0) + " points" }, [
      el("div", { class: "sp-card-top sp-" + c.color }, [
        el("b", { text: c.points ? String(c.points) : "" }),
        el("span", { text: letter })
      ]),
      gems(c.cost, false, "cost")
    ]);
  }

  function noble(n) {
    return el("div", { class: "sp-noble", title: "noble, " + (n.points || 0) + " points" }, [
      el("b", { text: (n.points || 0) + " pts" }), gems(n.requires, false, "requires")
    ]);
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    var table = obs.table || {};
    var decks = table.deck_counts || [];
    var hidden = obs.hidden && obs.hidden.decks || null;
    var top = el("div", { class: "sp-table" });
    top.appendChild(el("div", { class: "sp-line" }, [el("span", { class: "muted", text: "Bank " }), gems(table.gems, true, "bank")]));
    top.appendChild(el("div", { class: "sp-row" }, [el("span", { class: "muted sp-label", text: "Nobles" })]
      .concat((table.nobles || []).length ? table.nobles.map(noble) : [el("span", { class: "muted", text: "none left" })])));
    for (var level = 3; level >= 1; level--) {
      var row = el("div", { class: "sp-row" }, [
        el("div", { class: "sp-card sp-back sp-deck", title: "level " + level + " deck" }, [
          el("span", { text: "L" + level }), el("span", { text: (decks[level - 1] || 0) + " left" })
        ])
      ]);
      (table.cards || []).forEach(function (c) { if (c.level === level) row.appendChild(card(c)); });
      if (hidden && hidden[level - 1] && hidden[level - 1].length) {
        row.appendChild(el("span", { class: "muted rv-hidden", text: "next: " + hidden[level - 1].slice(0, 2).map(function (c) {
          return c.color + " " + (c.points || 0) + "pt";
        }).join(", ") }));
      }
      top.appendChild(row);
    }
    box.appendChild(top);

    var list = el("div", { class: "rv-players" });
    var players = obs.players || [];
    var count = Math.max(players.length, ctx.players.length);
    for (var seat = 0; seat < count; seat++) {
      var p = players[seat] || {};
      var onTurn = obs.to_act === seat;
      var reserved = p.reserved_cards || [];
      list.appendChild(ctx.player(seat, { onTurn: onTurn, score: [ctx.scoreCell(seat, p.score), " points"] }, [
        el("div", { class: "sp-line" }, [el("span", { class: "muted", text: "Gems " }), gems(p.gems, false, "gems")]),
        el("div", { class: "sp-line" }, [el("span", { class: "muted", text: "Bonuses " }), gems(p.bonuses, false, "bonuses"),
          el("span", { class: "muted", text: " \u00b7 " + (p.purchased_cards || []).length + " cards \u00b7 " + (p.nobles || []).length + " nobles" })]),
        reserved.length ? el("div", { class: "sp-row" }, [el("span", { class: "muted sp-label", text: "Reserved" })].concat(reserved.map(card))) : null
      ]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("splendor", { draw: draw });
})();
