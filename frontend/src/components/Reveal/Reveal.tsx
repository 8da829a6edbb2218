import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import classes from './Reveal.module.css';

interface RevealProps {
  /** Fraction of the block that must be visible before it animates in (0-1). */
  threshold: number;
  children: ReactNode;
  className?: string;
}

/**
 * Fades and slides its children in the first time `threshold` of them is
 * visible. Under prefers-reduced-motion (or without IntersectionObserver)
 * the content is simply shown, with no animation.
 */
export function Reveal({ threshold, children, className }: RevealProps) {
  const ref = useRef<HTMLDivElement>(null);
  const reduceMotion = useReducedMotion(false, { getInitialValueInEffect: false });
  const canObserve = typeof window !== 'undefined' && 'IntersectionObserver' in window;
  const [seen, setSeen] = useState(false);
  const revealed = seen || reduceMotion || !canObserve;

  useEffect(() => {
    const node = ref.current;
    if (revealed || !node) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [revealed, threshold]);

  return (
    <div
      ref={ref}
      className={className ? `${classes.reveal} ${className}` : classes.reveal}
      data-revealed={revealed ? 'true' : 'false'}
      data-threshold={threshold}
    >
      {children}
    </div>
  );
}
