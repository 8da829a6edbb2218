import type { Virtualizer } from '@tanstack/react-virtual';

/**
 * A virtualiser's `measureElement` that takes a row's size from the ResizeObserver, after the
 * browser's own layout. Read when the row is put in the page (the library's default), the size
 * forces a layout of the whole page in the commit of the first rows, on top of the one the frame
 * then does. Until the observer has seen a row, its last known size (else the virtualiser's own
 * estimate of that row) stands.
 */
export function measureAfterLayout<S extends Element | Window>() {
  return (element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<S, Element>): number => {
    const box = entry?.borderBoxSize?.[0];
    if (box) return Math.round(box.blockSize);
    if (entry) return Math.round(element.getBoundingClientRect().height);
    const index = instance.indexFromElement(element);
    return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
  };
}
