import { useState } from 'react';
import beanUrl from '../../assets/coffee-bean.svg';
import { BEAN_COUNT, scatterBeans } from './beans';
import classes from './CoffeeBeans.module.css';

/**
 * The landing page's decoration: 30 coffee beans, one small SVG reused,
 * scattered in the page margins behind the content. Decorative only:
 * hidden from assistive technology and from the pointer.
 */
export function CoffeeBeans({ count = BEAN_COUNT }: { count?: number }) {
  // Scattered once per visit, so beans don't jump around on re-render.
  const [beans] = useState(() => scatterBeans(count));
  return (
    <div className={classes.layer} aria-hidden="true" data-testid="coffee-beans">
      {beans.map((b, i) => (
        <img
          key={i}
          src={beanUrl}
          alt=""
          width={b.size}
          height={b.size}
          loading="lazy"
          decoding="async"
          className={classes.bean}
          style={{ left: `${b.x}%`, top: `${b.y}%`, opacity: b.opacity, transform: `rotate(${b.rotate}deg)` }}
        />
      ))}
    </div>
  );
}
