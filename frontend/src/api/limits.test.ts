/**
 * The client's field caps are the contract's. The contact form reads them from the
 * generated schema; the profile keeps the product spec's numbers (§5: short text 100,
 * the three profile text fields 250), and this test proves the contract says the same.
 */
import { MAX_EMAIL, MAX_MESSAGE, MAX_NAME } from '../features/contact/ContactForm';
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
});
