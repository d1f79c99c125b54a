// The memory list's pages: newest first, PAGE_SIZE at a time, over the library's oldest-first `getAll`
// pages (`offset`, `totalCount`), with Newer/Older buttons and "1–50 of 1201".

export const PAGE_SIZE = 50;

export class Pager {
  /** `onTurn` re-reads the list after Newer or Older. */
  constructor({ nav, newer, older, range }, onTurn) {
    Object.assign(this, { nav, newer, older, range });
    this.page = 0;
    newer.addEventListener("click", () => this.turn(-1, onTurn));
    older.addEventListener("click", () => this.turn(1, onTurn));
  }

  turn(step, onTurn) {
    this.page = Math.max(0, this.page + step);
    onTurn();
  }

  /** Back to the newest page (after a write or a new user). */
  first() {
    this.page = 0;
  }

  /** This page's newest-first memories of `memory` in `scope`, and how many there are in all. */
  async read(memory, scope) {
    const { totalCount } = await memory.getAll({ ...scope, limit: 1 });
    const pages = Math.max(1, Math.ceil(totalCount / PAGE_SIZE));
    this.page = Math.min(this.page, pages - 1);
    const end = totalCount - this.page * PAGE_SIZE;
    const start = Math.max(0, end - PAGE_SIZE);
    if (end <= 0) return { items: [], total: totalCount };
    const { results } = await memory.getAll({ ...scope, offset: start, limit: end - start });
    return { items: results.reverse(), total: totalCount };
  }

  /** Shows where the page is; hidden while searching (`total` null) or when one page holds everything. */
  show(total, shown) {
    this.nav.hidden = total === null || total <= PAGE_SIZE;
    if (this.nav.hidden) return;
    const from = this.page * PAGE_SIZE + 1;
    this.range.textContent = `${from}–${from + shown - 1} of ${total}`;
    this.newer.disabled = this.page === 0;
    this.older.disabled = from + shown - 1 >= total;
  }
}
