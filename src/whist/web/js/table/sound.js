// A few short sounds made with the Web Audio API (no audio files): a card played, a trick
// won, your turn. Only when the player's sound setting is on.
import { settings } from "../settings.js";
import { playSequence } from "./layout.js";

let audio = null;
const heard = new Set(); // "deal:card" of each card already heard (your own, when you click)
export const played = { card: 0, trick: 0, turn: 0 }; // how many of each were made

function context() {
  if (!settings.sound) return null;
  try {
    audio = audio || new AudioContext();
  } catch {
    return null; // no Web Audio here: silence
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// One note: `freq` Hz from `start` s for `length` s, fading out.
function note(ac, freq, start, length, type = "sine", volume = 0.15) {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ac.currentTime + start);
  gain.gain.setValueAtTime(volume, ac.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + start + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(ac.currentTime + start);
  osc.stop(ac.currentTime + start + length);
}

// A card on the felt: a short, soft snap of filtered noise.
function snap(ac) {
  const length = 0.06;
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ac.createBufferSource();
  const filter = ac.createBiquadFilter();
  const gain = ac.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = 0.5;
  source.connect(filter).connect(gain).connect(ac.destination);
  source.start();
}

const SOUNDS = {
  card: snap,
  trick: (ac) => {
    note(ac, 660, 0, 0.12, "triangle");
    note(ac, 880, 0.1, 0.2, "triangle");
  },
  turn: (ac) => note(ac, 988, 0, 0.25, "sine", 0.1),
};

// Made once the frame that shows the move is painted: the first sound starts the audio
// engine, which takes a while, and a card is never drawn late for it.
export function playSound(name) {
  if (!settings.sound) return;
  requestAnimationFrame(() => setTimeout(() => {
    const ac = context();
    if (!ac) return;
    played[name] += 1;
    SOUNDS[name](ac);
  }, 0));
}

// The sound of `card` arriving on the felt, once per deal and card.
export function cardSound(deal, card) {
  const key = `${deal}:${card}`;
  if (heard.has(key)) return;
  heard.add(key);
  playSound("card");
}

// The sounds for what changed between two states drawn one after the other.
export function soundCues(prev, next) {
  const a = prev && prev.view;
  const b = next.view;
  if (!a || a.deal !== b.deal) return;
  const before = playSequence(a).length;
  for (const p of playSequence(b).slice(before)) cardSound(b.deal, p.card);
  if (b.tricks.length > a.tricks.length) playSound("trick");
  const me = b.seat;
  const mine = (v) => me !== null && v.to_act.includes(me) && v.legal.length > 0;
  if (mine(b) && !mine(a)) playSound("turn");
}
