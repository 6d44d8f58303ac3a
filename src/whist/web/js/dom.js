// Tiny DOM helpers: h("div", {class: "x", onclick: f}, child, ...) builds elements.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2).toLowerCase(), value);
      } else if (key === "class") {
        el.className = value;
      } else if (key === "html") {
        el.innerHTML = value;
      } else if (key === "dataset") {
        Object.assign(el.dataset, value);
      } else if (key === "style" && typeof value === "object") {
        for (const [name, v] of Object.entries(value)) {
          if (name.startsWith("--")) el.style.setProperty(name, v);
          else el.style[name] = v;
        }
      } else if (key in el && typeof value !== "string" && key !== "list") {
        el[key] = value;
      } else {
        el.setAttribute(key, value === true ? "" : String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

// The same, but only when the new children differ (as HTML): a redraw that changes nothing
// keeps the elements under the pointer (a click is not lost between press and release)
// and the keyboard focus. Only for children whose handlers do not depend on the state.
export function replaceIfChanged(el, ...children) {
  const fresh = document.createElement("div");
  append(fresh, children);
  if (fresh.innerHTML === el.innerHTML) return el;
  clear(el);
  while (fresh.firstChild) el.appendChild(fresh.firstChild);
  return el;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function $all(selector, root = document) {
  return Array.from(root.querySelectorAll(selector));
}

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
