import { FEW_LEFT, messagesLeft, messagesLeftText } from './messagesLeft';

describe('messagesLeft', () => {
  it('says nothing until two exchanges are answered, or while more than a few are left', () => {
    expect(messagesLeft(80, 1000, 1)).toBeNull();
    expect(messagesLeft(0, 1000, 3)).toBeNull();
    expect(messagesLeft(160, 1000, 2)).toBeNull(); // 80 a message: 10 left
  });

  it('counts what is left from the average of the exchanges so far', () => {
    expect(messagesLeft(600, 1000, 6)).toBe(4); // 100 a message, 400 left
    expect(messagesLeft(1000, 1000, 10)).toBe(0);
    expect(messagesLeft(1200, 1000, 10)).toBe(0);
    expect(messagesLeft(1000 - 100 * FEW_LEFT, 1000, 5)).toBe(FEW_LEFT);
  });

  it('says it in words, offering a new session that picks up the thread', () => {
    expect(messagesLeftText(1)).toBe('About 1 message left in this session. After that you can start a new one that picks up where you left off.');
    expect(messagesLeftText(3)).toMatch(/^About 3 messages left in this session\./);
    expect(messagesLeftText(0)).toMatch(/about to reach its limit.*new session/);
  });
});
