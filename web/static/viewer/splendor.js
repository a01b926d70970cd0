// The Splendor board for the replay viewer (see viewer.js): the gem bank, the nobles, the three
// card rows with their decks, and each player's points, gems, bonuses, reserved cards (face
// down when the observation does not show them) and nobles. Every gem colour also has a letter.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var t = window.CroupierViewer.t;
  var GEMS = [
    ["white", "W"], ["blue", "U"], ["green", "G"], ["red", "R"], ["black", "K"], ["gold", "\u2605"]
  ];

  // A colour's name in the page's language (the protocol's word in English).
  function colorName(color) {
    var names = {
      white: t("viewer-splendor-white", "white"),
      blue: t("viewer-splendor-blue", "blue"),
      green: t("viewer-splendor-green", "green"),
      red: t("viewer-splendor-red", "red"),
      black: t("viewer-splendor-black", "black"),
      gold: t("viewer-splendor-gold", "gold")
    };
    return Object.prototype.hasOwnProperty.call(names, color) ? names[color] : color;
  }

  // Gems with a count, `{white: 2, …}` → chips; zeros left out unless `all`.
  function gems(counts, all, label, role) {
    var row = el("span", { class: "sp-gems", "aria-label": label || null, "data-gems": role || null });
    GEMS.forEach(function (g) {
      var n = counts && counts[g[0]] || 0;
      if (!n && !all) return;
      row.appendChild(el("span", { class: "sp-gem sp-" + g[0], title: n + " " + colorName(g[0]), "data-gem": g[0] }, [
        el("b", { text: g[1] }), String(n)
      ]));
    });
    if (!row.firstChild) row.appendChild(el("span", { class: "muted", text: t("viewer-none", "none") }));
    return row;
  }

  function card(c) {
    if (!c || !c.color) {
      return el("div", { class: "sp-card sp-back", title: t("viewer-face-down", "face down") }, [
        el("span", { text: c && c.level ? t("viewer-splendor-level", "level {level}", { level: c.level }) : t("viewer-face-down", "face down") })
      ]);
    }
    var letter = (GEMS.filter(function (g) { return g[0] === c.color; })[0] || ["", "?"])[1];
    return el("div", { class: "sp-card", "data-card": JSON.stringify(c), title: t("viewer-splendor-card", "level {level} {color} card, {n} points", { level: c.level, color: colorName(c.color), n: c.points || 0 }) }, [
      el("div", { class: "sp-card-top sp-" + c.color }, [
        el("b", { text: c.points ? String(c.points) : "" }),
        el("span", { text: letter })
      ]),
      gems(c.cost, false, t("viewer-splendor-cost", "cost"))
    ]);
  }

  function noble(n) {
    return el("div", { class: "sp-noble", title: t("viewer-splendor-noble", "noble, {n} points", { n: n.points || 0 }) }, [
      el("b", { text: t("viewer-splendor-pts", "{points} pts", { points: n.points || 0 }) }), gems(n.requires, false, t("viewer-splendor-requires", "requires"))
    ]);
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    var table = obs.table || {};
    var decks = table.deck_counts || [];
    var hidden = obs.hidden && obs.hidden.decks || null;
    var top = el("div", { class: "sp-table" });
    top.appendChild(el("div", { class: "sp-line" }, [el("span", { class: "muted", text: t("viewer-splendor-bank", "Bank") + " " }), gems(table.gems, true, t("viewer-splendor-bank-label", "bank"), "bank")]));
    top.appendChild(el("div", { class: "sp-row" }, [el("span", { class: "muted sp-label", text: t("viewer-splendor-nobles", "Nobles") })]
      .concat((table.nobles || []).length ? table.nobles.map(noble) : [el("span", { class: "muted", text: t("viewer-splendor-none-left", "none left") })])));
    for (var level = 3; level >= 1; level--) {
      var row = el("div", { class: "sp-row" }, [
        el("div", { class: "sp-card sp-back sp-deck", "data-deck": level, title: t("viewer-splendor-deck", "level {level} deck", { level: level }) }, [
          el("span", { text: "L" + level }), el("span", { text: t("viewer-splendor-left", "{count} left", { count: decks[level - 1] || 0 }) })
        ])
      ]);
      (table.cards || []).forEach(function (c) { if (c.level === level) row.appendChild(card(c)); });
      if (hidden && hidden[level - 1] && hidden[level - 1].length) {
        row.appendChild(el("span", { class: "muted rv-hidden", text: t("viewer-splendor-next", "next:") + " " + hidden[level - 1].slice(0, 2).map(function (c) {
          return colorName(c.color) + " " + (c.points || 0) + "pt";
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
      list.appendChild(ctx.player(seat, { onTurn: onTurn, score: [t("viewer-splendor-points", "points") + " ", ctx.scoreCell(seat, p.score)] }, [
        el("div", { class: "sp-line" }, [el("span", { class: "muted", text: t("viewer-splendor-gems", "Gems") + " " }), gems(p.gems, false, t("viewer-splendor-gems-label", "gems"))]),
        el("div", { class: "sp-line" }, [el("span", { class: "muted", text: t("viewer-splendor-bonuses", "Bonuses") + " " }), gems(p.bonuses, false, t("viewer-splendor-bonuses-label", "bonuses")),
          el("span", { class: "muted", text: " \u00b7 " + t("viewer-splendor-owned", "{cards} cards \u00b7 {nobles} nobles", { cards: (p.purchased_cards || []).length, nobles: (p.nobles || []).length }) })]),
        reserved.length ? el("div", { class: "sp-row" }, [el("span", { class: "muted sp-label", text: t("viewer-splendor-reserved", "Reserved") })].concat(reserved.map(card))) : null
      ]));
    }
    box.appendChild(list);
  }

  window.CroupierViewer.register("splendor", { draw: draw });
})();
