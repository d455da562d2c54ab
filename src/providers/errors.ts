import { HookwiseError } from '../core/errors.js';

/** A model provider named or configured wrongly (`createProvider`'s spec, an empty `model`): the message shows the form it takes. */
export class ProviderOptionError extends HookwiseError {
  override readonly code = 'PROVIDER_OPTION';
}
