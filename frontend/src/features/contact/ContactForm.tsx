import { Alert, Box, Button, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useSendContactMessage } from '../../api/gen/public/public';
import { ApiError } from '../../api/mutator';
import {
  sendContactMessageBodyEmailMax,
  sendContactMessageBodyMessageMax,
  sendContactMessageBodyNameMax,
} from '../../api/gen/zod/schemas';

/** Field caps of the contact call, as the contract states them. */
export const MAX_NAME = sendContactMessageBodyNameMax;
export const MAX_EMAIL = sendContactMessageBodyEmailMax;
export const MAX_MESSAGE = sendContactMessageBodyMessageMax;

const GENERIC_ERROR = "We couldn't send your message. Please try again.";

interface Fields {
  name: string;
  email: string;
  message: string;
  website: string;
}

const empty: Fields = { name: '', email: '', message: '', website: '' };

/** The contact form on /team#contact: posts to POST /api/public/contact. */
export function ContactForm() {
  const [fields, setFields] = useState<Fields>(empty);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const mutation = useSendContactMessage();

  const error = mutation.error;
  const fieldErrors = error instanceof ApiError && error.code === 'VALIDATION_ERROR' ? (error.details ?? {}) : {};
  const banner = error
    ? error instanceof ApiError
      ? (error.serverMessage ?? error.serverError ?? GENERIC_ERROR)
      : GENERIC_ERROR
    : null;

  function set<K extends keyof Fields>(key: K, value: string) {
    setFields((f) => ({ ...f, [key]: value }));
  }

  /** The props that tie a visible field to its value and its error. */
  function bind(key: 'name' | 'email' | 'message') {
    return {
      name: key,
      value: fields[key],
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.currentTarget.value),
      error: fieldErrors[key],
    };
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    mutation.mutate(
      { data: { name: fields.name, email: fields.email, message: fields.message, website: fields.website } },
      {
        onSuccess: (res) => {
          setSentMessage(res.message);
          setFields(empty);
        },
      },
    );
  }

  if (sentMessage !== null) {
    return (
      <Stack gap="sm" align="flex-start">
        <Alert color="sage" title="Message sent" role="status" w="100%">
          {sentMessage}
        </Alert>
        <Button
          variant="subtle"
          onClick={() => {
            setSentMessage(null);
            mutation.reset();
          }}
        >
          Send another message
        </Button>
      </Stack>
    );
  }

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Contact form">
      <Stack gap="md">
        {banner ? (
          <Alert color="clay" role="alert" title="Not sent">
            {banner}
          </Alert>
        ) : null}
        <TextInput
          label="Name"
          {...bind('name')}
          autoComplete="name"
          required
          maxLength={MAX_NAME}
        />
        <TextInput
          label="Email"
          {...bind('email')}
          type="email"
          autoComplete="email"
          required
          maxLength={MAX_EMAIL}
        />
        <Textarea
          label="Message"
          {...bind('message')}
          required
          rows={6}
          maxLength={MAX_MESSAGE}
          description={
            <Text span size="xs" aria-live="polite">
              {fields.message.length}/{MAX_MESSAGE} characters
            </Text>
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        {/* Honeypot: hidden from people and assistive technology; bots fill it in. */}
        <Box
          aria-hidden="true"
          style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}
        >
          <label>
            Website
            <input
              type="text"
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={fields.website}
              onChange={(e) => set('website', e.currentTarget.value)}
            />
          </label>
        </Box>
        <Button type="submit" loading={mutation.isPending} loaderProps={{ 'aria-label': 'Sending' }} w="fit-content">
          Send Message
        </Button>
      </Stack>
    </Box>
  );
}
