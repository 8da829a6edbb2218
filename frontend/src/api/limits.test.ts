/**
 * The client's field caps are the contract's: the forms read them from the generated
 * schema (orval's zod output), and this test proves they do and that the contract says
 * what the product spec says (§5: short text 100, the three profile text fields 250).
 */
import { MAX_EMAIL, MAX_MESSAGE, MAX_NAME } from '../features/contact/ContactForm';
import { MEMORY_MAX } from '../features/memory/MemoryPanel';
import { TEXT_FIELD_MAX } from '../pages/Profile/EditableField';
import * as contract from './gen/zod/schemas';

/** Spec §5 and §9: "Text caps: 100 and 250 characters". */
const SPEC_SHORT_TEXT_MAX = 100;

describe('field limits', () => {
  it('the profile text fields are capped where the contract caps them, as the spec says', () => {
    expect(TEXT_FIELD_MAX).toBe(250);
    expect(contract.updateProfileBodyFocusAreasMax).toBe(TEXT_FIELD_MAX);
    expect(contract.updateProfileBodyPrimaryConcernsMax).toBe(TEXT_FIELD_MAX);
    expect(contract.updateProfileBodySensitiveTopicsMax).toBe(TEXT_FIELD_MAX);
  });

  it('names are short text, capped at the spec’s 100 by the contract', () => {
    expect(contract.registerBodyNameMax).toBe(SPEC_SHORT_TEXT_MAX);
    expect(contract.sendContactMessageBodyNameMax).toBe(SPEC_SHORT_TEXT_MAX);
  });

  it('the contact form caps each field where the contract does', () => {
    expect(MAX_NAME).toBe(contract.sendContactMessageBodyNameMax);
    expect(MAX_EMAIL).toBe(contract.sendContactMessageBodyEmailMax);
    expect(MAX_MESSAGE).toBe(contract.sendContactMessageBodyMessageMax);
  });

  it('a remembered sentence is capped where the contract caps an edit of it, and of what is listed', () => {
    expect(MEMORY_MAX).toBe(contract.updateMemoryBodyTextMax);
    expect(MEMORY_MAX).toBe(contract.listMemoriesResponseTextMax);
  });
});
