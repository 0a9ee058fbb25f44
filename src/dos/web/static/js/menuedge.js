// @ts-check
// Where the menu ends in the window, for what floats below it and must never cover it (a
// refusal's banner, style.css): `--menu-bottom` on the root element, 0 once the menu has
// scrolled away, kept as the page scrolls and as the menu wraps or changes its words.

/** Keeps `--menu-bottom` up to date for the page's `.topbar`, if it has one. */
export function followMenu() {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  const root = document.documentElement;
  const update = () => {
    root.style.setProperty("--menu-bottom", `${Math.max(0, bar.getBoundingClientRect().bottom)}px`);
  };
  update();
  window.addEventListener("scroll", update, { passive: true });
  new ResizeObserver(update).observe(bar);
}
