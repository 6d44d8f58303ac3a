// The art of the playing cards, drawn as SVG by this project: faces in each design, backs.
// Pure strings; cards.js turns them into images.

// ------------------------------------------------------------------ colours
const TWO = { S: "#1b1b1b", H: "#c8102e", D: "#c8102e", C: "#1b1b1b" };
const FOUR = { S: "#1b1b1b", H: "#c8102e", D: "#0b5cad", C: "#13783a" };

function suitColour(suit, four) {
  return (four ? FOUR : TWO)[suit];
}

// Suit shapes in a 100×100 box, drawn for this project.
const SUIT_PATH = {
  H: "M50 92 C34 76 4 56 4 30 C4 14 16 4 29 4 C39 4 46 10 50 19 C54 10 61 4 71 4 C84 4 96 14 96 30 C96 56 66 76 50 92 Z",
  D: "M50 2 L88 50 L50 98 L12 50 Z",
  S: "M50 3 C60 20 96 40 96 63 C96 78 85 87 73 87 C64 87 57 83 54 77 C55 86 59 93 67 98 L33 98 C41 93 45 86 46 77 C43 83 36 87 27 87 C15 87 4 78 4 63 C4 40 40 20 50 3 Z",
  C: "M50 4 C62 4 71 13 71 25 C71 33 67 39 62 43 C67 40 72 38 77 38 C89 38 98 48 98 60 C98 72 89 81 77 81 C67 81 59 75 55 67 C55 80 59 90 67 98 L33 98 C41 90 45 80 45 67 C41 75 33 81 23 81 C11 81 2 72 2 60 C2 48 11 38 23 38 C28 38 33 40 38 43 C33 39 29 33 29 25 C29 13 38 4 50 4 Z",
};

function suitShape(suit, cx, cy, size, colour, rotate = false) {
  const s = size / 100;
  const x = cx - size / 2;
  const y = cy - size / 2;
  const rot = rotate ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATH[suit]}" fill="${colour}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${s.toFixed(3)})${rot}"/>`;
}

// ---------------------------------------------------------------- faces
const W = 200;
const H = 280;
const FONT = "Arial, Helvetica, 'DejaVu Sans', sans-serif";
const SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif";

const FACE_STYLE = {
  classic: { bg: "#fffdf7", edge: "#8a8a8a", rank: 66, suit: 42, pips: true },
  four_colour: { bg: "#ffffff", edge: "#7a7a7a", rank: 66, suit: 42, pips: true, four: true, tint: true },
  large_index: { bg: "#ffffff", edge: "#6a6a6a", rank: 86, suit: 54, pips: false },
  art_deco: { bg: "#fbf5e6", edge: "#a8842f", rank: 64, suit: 40, pips: true, deco: true },
  folk: { bg: "#fff6ea", edge: "#9c5a2a", rank: 64, suit: 40, pips: true, folk: true },
};

const TINT = { S: "#f3f3f3", H: "#fff1f2", D: "#eef5ff", C: "#eefaf1" };

// Pip positions: x (L, M, R) and y per count.
const L = 74;
const M = 100;
const R = 126;
const PIPS = {
  2: [[M, 44], [M, 236]],
  3: [[M, 44], [M, 140], [M, 236]],
  4: [[L, 44], [R, 44], [L, 236], [R, 236]],
  5: [[L, 44], [R, 44], [M, 140], [L, 236], [R, 236]],
  6: [[L, 44], [R, 44], [L, 140], [R, 140], [L, 236], [R, 236]],
  7: [[L, 44], [R, 44], [M, 92], [L, 140], [R, 140], [L, 236], [R, 236]],
  8: [[L, 44], [R, 44], [M, 92], [L, 140], [R, 140], [M, 188], [L, 236], [R, 236]],
  9: [[L, 44], [R, 44], [L, 108], [R, 108], [M, 140], [L, 172], [R, 172], [L, 236], [R, 236]],
  10: [[L, 44], [R, 44], [M, 76], [L, 108], [R, 108], [L, 172], [R, 172], [M, 204], [L, 236], [R, 236]],
};

function index(rank, suit, colour, style, flip) {
  const label = rank === "T" ? "10" : rank;
  const narrow = label.length > 1 ? ` textLength="${style.rank * 0.98}" lengthAdjust="spacingAndGlyphs"` : "";
  const group =
    `<text x="12" y="${style.rank * 0.86 + 6}" font-family="${FONT}" font-weight="700" ` +
    `font-size="${style.rank}" fill="${colour}"${narrow}>${label}</text>` +
    suitShape(suit, 12 + style.suit / 2, style.rank * 0.86 + 14 + style.suit / 2, style.suit, colour);
  return flip ? `<g transform="rotate(180 ${W / 2} ${H / 2})">${group}</g>` : group;
}

function decoration(style, colour) {
  if (style.deco) {
    const gold = "#a8842f";
    let fans = "";
    for (const [cx, cy, a] of [[14, 14, 0], [186, 14, 90], [186, 266, 180], [14, 266, 270]]) {
      let rays = "";
      for (let i = 1; i <= 4; i += 1) rays += `<path d="M0 0 L${i * 9} 34 M0 0 L34 ${i * 9}" />`;
      fans += `<g transform="translate(${cx} ${cy}) rotate(${a})" stroke="${gold}" stroke-width="1.6" fill="none">${rays}</g>`;
    }
    return (
      `<rect x="7" y="7" width="186" height="266" rx="10" fill="none" stroke="${gold}" stroke-width="3"/>` +
      `<rect x="12" y="12" width="176" height="256" rx="7" fill="none" stroke="${gold}" stroke-width="1"/>` +
      fans
    );
  }
  if (style.folk) {
    const leaf = "#4f7a3a";
    const flower = (x, y) => {
      let petals = "";
      for (let i = 0; i < 6; i += 1) {
        const a = (i * Math.PI) / 3;
        petals += `<circle cx="${(x + Math.cos(a) * 6).toFixed(1)}" cy="${(y + Math.sin(a) * 6).toFixed(1)}" r="4.2" fill="${colour}" fill-opacity="0.55"/>`;
      }
      return petals + `<circle cx="${x}" cy="${y}" r="3.4" fill="#e2a72e"/>`;
    };
    let dots = "";
    for (let x = 30; x <= 170; x += 14) {
      dots += `<circle cx="${x}" cy="9" r="2" fill="${leaf}"/><circle cx="${x}" cy="271" r="2" fill="${leaf}"/>`;
    }
    return dots + flower(186, 22) + flower(14, 258);
  }
  return "";
}

function court(rank, suit, colour, style) {
  const tint = colour + "18";
  // The frame: right of the index column; lower and larger-index faces leave more room.
  const big = !style.pips;
  const x0 = big ? 78 : 60;
  const y0 = big ? 118 : 26;
  const w = big ? 110 : 100;
  const hgt = big ? 150 : 228;
  const cx = x0 + w / 2;
  const k = big ? 0.78 : 1;
  const at = (x, y) => `translate(${cx} ${y0}) scale(${k}) translate(${-100 + x} ${y})`;
  let crown;
  if (rank === "K") {
    crown = `<path d="M70 118 L70 96 L84 108 L100 88 L116 108 L130 96 L130 118 Z" fill="#e2b23a" stroke="${colour}" stroke-width="2.5" stroke-linejoin="round"/>`;
  } else if (rank === "Q") {
    crown =
      `<path d="M74 118 Q100 92 126 118 Z" fill="#e2b23a" stroke="${colour}" stroke-width="2.5"/>` +
      `<circle cx="100" cy="98" r="5" fill="${colour}"/><circle cx="84" cy="106" r="3.5" fill="${colour}"/><circle cx="116" cy="106" r="3.5" fill="${colour}"/>`;
  } else {
    crown = `<path d="M76 118 C80 100 96 94 118 96 C112 100 110 106 124 118 Z" fill="#e2b23a" stroke="${colour}" stroke-width="2.5" stroke-linejoin="round"/>`;
  }
  const frameStroke = style.deco ? "#a8842f" : colour;
  const inner = big
    ? crown +
      `<text x="100" y="196" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="84" fill="${colour}">${rank}</text>`
    : suitShape(suit, 100, 62, 30, colour) +
      crown +
      `<text x="100" y="190" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="78" fill="${colour}">${rank}</text>` +
      suitShape(suit, 100, 222, 26, colour, true);
  return (
    `<rect x="${x0}" y="${y0}" width="${w}" height="${hgt}" rx="10" fill="${tint}" stroke="${frameStroke}" stroke-width="3"/>` +
    (style.deco ? `<rect x="${x0 + 6}" y="${y0 + 6}" width="${w - 12}" height="${hgt - 12}" rx="6" fill="none" stroke="#a8842f" stroke-width="1.2"/>` : "") +
    `<g transform="${at(0, big ? -56 : -26)}">${inner}</g>`
  );
}

function centre(rank, suit, colour, style) {
  if (rank === "J" || rank === "Q" || rank === "K") return court(rank, suit, colour, style);
  if (rank === "A") {
    return (
      (style.deco ? `<circle cx="100" cy="140" r="62" fill="none" stroke="#a8842f" stroke-width="2"/>` : "") +
      (style.pips ? suitShape(suit, 108, 140, 90, colour) : suitShape(suit, 130, 196, 100, colour))
    );
  }
  const count = rank === "T" ? 10 : Number(rank);
  if (!style.pips) {
    return suitShape(suit, 130, 196, 100, colour);
  }
  return PIPS[count].map(([x, y]) => suitShape(suit, x, y, 28, colour, y > 140)).join("");
}

// `card` as "QH"; `face`: a card face design; `four`: the four-colour deck.
export function cardSVG(card, face, four) {
  const style = FACE_STYLE[face] || FACE_STYLE.classic;
  const rank = card[0];
  const suit = card[1];
  const colour = suitColour(suit, four || !!style.four);
  const bg = style.tint ? TINT[suit] : style.bg;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="${bg}" stroke="${style.edge}" stroke-width="3"/>` +
    decoration(style, colour) +
    centre(rank, suit, colour, style) +
    index(rank, suit, colour, style, false) +
    (style.pips ? index(rank, suit, colour, style, true) : "") +
    `</svg>`
  );
}

// ---------------------------------------------------------------- backs
function lines(step, angle, colour, width, opacity) {
  let out = "";
  for (let i = -300; i <= 500; i += step) {
    out += `<line x1="${i}" y1="-20" x2="${i + Math.tan((angle * Math.PI) / 180) * 320}" y2="300" stroke="${colour}" stroke-width="${width}" stroke-opacity="${opacity}"/>`;
  }
  return out;
}

function backPattern(name) {
  switch (name) {
    case "blue": {
      let dots = "";
      for (let y = 24; y < 270; y += 16) {
        for (let x = 24 + ((y / 16) % 2) * 8; x < 180; x += 16) {
          dots += `<circle cx="${x}" cy="${y}" r="3.2" fill="#cfe0ff" fill-opacity="0.7"/>`;
        }
      }
      return { bg: "#1d3f8c", body: dots, border: "#e8f0ff" };
    }
    case "green": {
      let chevrons = "";
      for (let y = 20; y < 290; y += 18) {
        let pts = "";
        for (let x = 0; x <= 200; x += 20) pts += `${x},${y + ((x / 20) % 2 ? 9 : 0)} `;
        chevrons += `<polyline points="${pts}" fill="none" stroke="#d7f0dc" stroke-opacity="0.6" stroke-width="3"/>`;
      }
      return { bg: "#1b6a3b", body: chevrons, border: "#eefaf0" };
    }
    case "lattice": {
      const gold = "#e0bb5a";
      const body =
        lines(22, 35, gold, 2.2, 0.75) + lines(22, -35, gold, 2.2, 0.75) +
        `<ellipse cx="100" cy="140" rx="38" ry="52" fill="#5b1a32" stroke="${gold}" stroke-width="4"/>` +
        `<ellipse cx="100" cy="140" rx="26" ry="38" fill="none" stroke="${gold}" stroke-width="2"/>`;
      return { bg: "#5b1a32", body, border: gold };
    }
    case "royal": {
      const gold = "#e6c15c";
      let star = "";
      for (let i = 0; i < 16; i += 1) {
        const a = (i * Math.PI) / 8;
        const r = i % 2 ? 22 : 52;
        star += `${(100 + Math.cos(a) * r).toFixed(1)},${(140 + Math.sin(a) * r).toFixed(1)} `;
      }
      let corners = "";
      for (const [x, y] of [[34, 36], [166, 36], [34, 244], [166, 244]]) {
        corners += `<circle cx="${x}" cy="${y}" r="9" fill="none" stroke="${gold}" stroke-width="2.5"/><circle cx="${x}" cy="${y}" r="3" fill="${gold}"/>`;
      }
      const body =
        `<rect x="20" y="22" width="160" height="236" rx="8" fill="none" stroke="${gold}" stroke-width="2"/>` +
        `<polygon points="${star}" fill="${gold}" fill-opacity="0.9"/>` +
        `<circle cx="100" cy="140" r="14" fill="#3b1d5e" stroke="${gold}" stroke-width="2.5"/>` +
        corners;
      return { bg: "#3b1d5e", body, border: gold };
    }
    default: {
      const body = lines(14, 45, "#ffffff", 1.6, 0.35) + lines(14, -45, "#ffffff", 1.6, 0.35);
      return { bg: "#8e1b1b", body, border: "#ffffff" };
    }
  }
}

export function backSVG(name) {
  const { bg, body, border } = backPattern(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">` +
    `<defs><clipPath id="inner"><rect x="12" y="12" width="176" height="256" rx="8"/></clipPath></defs>` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#ffffff" stroke="#777" stroke-width="3"/>` +
    `<rect x="10" y="10" width="180" height="260" rx="9" fill="${bg}"/>` +
    `<g clip-path="url(#inner)">${body}</g>` +
    `<rect x="12" y="12" width="176" height="256" rx="8" fill="none" stroke="${border}" stroke-width="2.5"/>` +
    `</svg>`
  );
}
