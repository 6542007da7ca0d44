import { InvalidArgumentError, Option } from 'commander';
import { closest } from '../core/suggest.js';

/**
 * An option whose value is one of `choices`, taken regardless of case, spaces and hyphens
 * (`Chargeback`, `manual-analysis`) and normalised to the choice; anything else is refused
 * with the choice it most likely meant. Help and completion still list the choices.
 */
export function foldedChoices(option: Option, choices: readonly string[]): Option {
  return option.choices(choices).argParser((value: string) => {
    const folded = value
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const match = choices.find((choice) => choice === folded);
    if (match !== undefined) return match;
    const guess = closest(value, choices);
    throw new InvalidArgumentError(
      `${guess === undefined ? '' : `did you mean ${guess}? `}Allowed choices are ${choices.join(', ')}.`,
    );
  });
}
