import { act, render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { RevealText } from './RevealText';

describe('RevealText', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reveals one word every 100 ms and reports when done', () => {
    const onDone = vi.fn();
    render(
      <p data-testid="text">
        <RevealText text={'Take a slow breath.\nWhat stands out?'} animate onDone={onDone} />
      </p>,
    );
    const text = () => screen.getByTestId('text').textContent;

    expect(text()).toBe('');
    act(() => vi.advanceTimersByTime(100));
    expect(text()).toBe('Take ');
    act(() => vi.advanceTimersByTime(99));
    expect(text()).toBe('Take ');
    act(() => vi.advanceTimersByTime(1));
    expect(text()).toBe('Take a ');
    expect(onDone).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(400));
    expect(text()).toBe('Take a slow breath.\nWhat stands ');
    expect(onDone).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(100));
    expect(text()).toBe('Take a slow breath.\nWhat stands out?');
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('shows the whole text at once when not animating, as text and never as HTML', () => {
    render(
      <p data-testid="text">
        <RevealText text="<b>bold</b> <img src=x onerror=alert(1)>" animate={false} />
      </p>,
    );
    expect(screen.getByTestId('text').textContent).toBe('<b>bold</b> <img src=x onerror=alert(1)>');
    expect(screen.getByTestId('text').querySelector('b, img')).toBeNull();
  });
});
