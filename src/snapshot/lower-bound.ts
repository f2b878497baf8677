/**
 * The first position in [0, length) at which `below(position)` is false, for a `below` that is
 * true up to some position and false from there on (a sorted array, asked "is the entry here
 * before what I look for?"); `length` when it is true everywhere. A binary search, shared by
 * the lookups over sorted snapshot data.
 */
export function lowerBound(length: number, below: (position: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (below(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
