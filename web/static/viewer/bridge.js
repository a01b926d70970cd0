// The Contract Bridge board for the replay viewer (see viewer.js): the hand diagram (North on
// top, West and East at the sides, South below; a hand the viewer cannot see is face down),
// the auction, the contract, the trick on the table and the tricks won, and the deal's result.
// Seats: 0 North, 1 East, 2 South, 3 West. Suits keep their letters beside the symbols.
(function () {
  "use strict";
  var el = window.CroupierViewer.el;
  var t = window.CroupierViewer.t;
  var SEATS = [t("viewer-bridge-north", "North"), t("viewer-bridge-east", "East"), t("viewer-bridge-south", "South"), t("viewer-bridge-west", "West")];
  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663", N: "NT" };
  var RED = { H: true, D: true };
  var RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K", 10: "10" };

  function rank(n) { return RANKS[n] || String(n); }

  // "H-12" → ♥Q
  function cardText(code) {
    var m = /^([SHDC])-(\d+)$/.exec(code || "");
    if (!m) return code || "";
    return SUITS[m[1]] + rank(parseInt(m[2], 10));
  }

  function cardEl(code) {
    var m = /^([SHDC])-/.exec(code || "");
    return el("span", { class: "br-card" + (m && RED[m[1]] ? " br-red" : ""), title: code, text: cardText(code) });
  }

  // "N-7" → 7NT, "S-6" → 6♠, "pass" → Pass, "X"/"XX" as is.
  function callText(call) {
    var m = /^([SHDCN])-(\d)$/.exec(call || "");
    if (m) return m[2] + SUITS[m[1]];
    if (!call) return "";
    if (call === "pass") return t("viewer-bridge-pass", "Pass");
    return call.charAt(0).toUpperCase() + call.slice(1);
  }

  function hand(cards, title, seat) {
    var box = el("div", { class: "br-hand", "data-seat": seat }, [el("strong", { text: title })]);
    if (cards === null || cards === undefined) {
      box.appendChild(el("div", { class: "muted", text: t("viewer-face-down", "face down") }));
      return box;
    }
    ["S", "H", "D", "C"].forEach(function (s) {
      var ranks = cards.filter(function (c) { return c.charAt(0) === s; })
        .map(function (c) { return parseInt(c.slice(2), 10); })
        .sort(function (a, b) { return (b === 1 ? 14 : b) - (a === 1 ? 14 : a); });
      var row = el("div", { class: "br-suit" + (RED[s] ? " br-red" : "") }, [
        el("span", { class: "br-sym", title: s, text: SUITS[s] + " " })
      ]);
      // Each card its own element (data-card, as the protocol names it), so a seat can play it.
      ranks.forEach(function (r, i) {
        if (i > 0) row.appendChild(document.createTextNode(" "));
        row.appendChild(el("span", { class: "br-rank", "data-card": s + "-" + r, title: SUITS[s] + rank(r), text: rank(r) }));
      });
      if (!ranks.length) row.appendChild(document.createTextNode("\u2014"));
      box.appendChild(row);
    });
    return box;
  }

  // Who is vulnerable, in the page's language (the protocol's word in English).
  function vulnerability(v) {
    var names = {
      None: t("viewer-bridge-vulnerable-none", "None"),
      NS: t("viewer-bridge-vulnerable-ns", "NS"),
      EW: t("viewer-bridge-vulnerable-ew", "EW"),
      All: t("viewer-bridge-vulnerable-all", "All")
    };
    if (!v) return names.None;
    return Object.prototype.hasOwnProperty.call(names, v) ? names[v] : v;
  }

  function draw(box, frame, ctx) {
    var obs = frame.observation || {};
    var hands = obs.hands || [];
    var who = function (seat) { return SEATS[seat] + " (" + ctx.name(seat) + ")"; };
    var c = obs.contract;
    var contract = c && c.bid ? t("viewer-bridge-contract-by", "{bid} by {seat}", {
      bid: c.bid.level + SUITS[c.bid.strain] + (c.doubled === "doubled" ? " X" : c.doubled === "redoubled" ? " XX" : ""),
      seat: SEATS[c.declarer]
    }) : t("viewer-bridge-no-contract", "no contract yet");
    box.appendChild(el("p", { class: "br-head" }, [
      el("strong", { text: t("viewer-bridge-board", "Board {board}", { board: obs.board || "?" }) }),
      " \u00b7 " + t("viewer-bridge-dealer", "dealer {seat}", { seat: SEATS[obs.dealer] || "?" }) +
        " \u00b7 " + t("viewer-bridge-vulnerable", "vulnerable: {who}", { who: vulnerability(obs.vulnerability) }) +
        " \u00b7 " + t("viewer-bridge-contract", "contract {contract}", { contract: contract })
    ]));

    var table = el("div", { class: "br-table" });
    table.appendChild(el("div", { class: "br-n" }, [hand(hands[0], who(0), 0)]));
    table.appendChild(el("div", { class: "br-w" }, [hand(hands[3], who(3), 3)]));
    var trick = (obs.tricks || [])[(obs.tricks || []).length - 1];
    var middle = el("div", { class: "br-mid" });
    if (trick && trick.cards && trick.cards.length) {
      middle.appendChild(el("div", { class: "muted", text: t("viewer-bridge-trick", "Trick {n}, led by {seat}", { n: obs.tricks.length, seat: SEATS[trick.leader] }) }));
      trick.cards.forEach(function (code, i) {
        middle.appendChild(el("div", {}, [SEATS[(trick.leader + i) % 4].charAt(0) + ": ", cardEl(code)]));
      });
    } else {
      middle.appendChild(el("div", { class: "muted", text: obs.stage === "auction" ? t("viewer-bridge-bidding", "Bidding") : t("viewer-bridge-no-trick", "No trick yet") }));
    }
    table.appendChild(middle);
    table.appendChild(el("div", { class: "br-e" }, [hand(hands[1], who(1), 1)]));
    table.appendChild(el("div", { class: "br-s" }, [hand(hands[2], who(2), 2)]));
    box.appendChild(table);

    var auction = el("table", { class: "br-auction" }, [
      el("thead", {}, [el("tr", {}, SEATS.map(function (s) { return el("th", { scope: "col", text: s }); }))])
    ]);
    var body = el("tbody");
    var row = el("tr");
    for (var pad = 0; pad < (obs.dealer || 0); pad++) row.appendChild(el("td"));
    (obs.calls || []).forEach(function (call) {
      if (row.childNodes.length === 4) { body.appendChild(row); row = el("tr"); }
      row.appendChild(el("td", { text: callText(call.call) }));
    });
    if (row.childNodes.length) body.appendChild(row);
    auction.appendChild(body);
    box.appendChild(el("details", { class: "br-auction-box", open: true }, [el("summary", { text: t("viewer-bridge-auction", "Auction") }), auction]));

    var won = obs.tricks_won || [0, 0, 0, 0];
    var list = el("div", { class: "rv-players" });
    for (var seat = 0; seat < 4; seat++) {
      var dummy = obs.playing_hand !== null && obs.playing_hand !== undefined && obs.playing_hand !== seat;
      list.appendChild(ctx.player(seat, {
        title: who(seat),
        onTurn: obs.to_act === seat,
        turnText: t("viewer-to-play", "\u25b6 to play") + (dummy ? " " + t("viewer-bridge-dummy-cards", "({seat}'s cards)", { seat: SEATS[obs.playing_hand] }) : "")
      }, [
        el("div", { class: "muted", text: t("viewer-bridge-tricks", "{n} tricks", { n: won[seat] || 0 }) + ((obs.robot || [])[seat] ? " \u00b7 " + t("viewer-bridge-robot", "played by the Robot") : "") })
      ]));
    }
    box.appendChild(list);
    if (obs.result) {
      box.appendChild(el("p", { class: "br-result", text: t("viewer-bridge-result", "Result: declarer took {n} tricks; North-South score {score}", { n: obs.result.declarer_tricks, score: obs.result.ns_score }) }));
    }
  }

  window.CroupierViewer.register("bridge", { draw: draw });
})();
