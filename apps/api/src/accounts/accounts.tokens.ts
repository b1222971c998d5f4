/** Queues invitation and password-reset emails for the worker (MailProducer). */
export const MAIL_PRODUCER = Symbol('MAIL_PRODUCER');
export const PASSWORD_HASHER = Symbol('PASSWORD_HASHER');
/** Failed sign-ins per address and email (SIGN_IN_FAILURE_*). */
export const SIGN_IN_LIMITER = Symbol('SIGN_IN_LIMITER');
