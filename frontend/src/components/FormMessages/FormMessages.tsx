import { Alert } from '@mantine/core';

interface FormMessagesProps {
  error?: string | null;
  success?: string | null;
}

/** A form's outcome: the error as an alert, the success as a status message. */
export function FormMessages({ error, success }: FormMessagesProps) {
  return (
    <>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      {success ? (
        <Alert color="green" role="status">
          {success}
        </Alert>
      ) : null}
    </>
  );
}
