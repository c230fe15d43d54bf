/**
 * Mean kinetic temperature (USP <1079>): the single temperature that would cause the same
 * cumulative degradation as the recorded series. MKT = (ΔH/R) / -ln(Σ e^(-ΔH/(R·T_i)) / n),
 * with T in kelvin. ΔH defaults to 83.144 kJ/mol, which makes ΔH/R = 10 000 K.
 */
export const GAS_CONSTANT = 8.3144598; // J/(mol·K)
export const DEFAULT_ACTIVATION_ENERGY_KJ = 83.144;

export function activationOverR(activationEnergyKj = DEFAULT_ACTIVATION_ENERGY_KJ): number {
  return (activationEnergyKj * 1000) / GAS_CONSTANT;
}

/** MKT in °C from the sum of e^(-ΔH/(R·T)) over n readings, as SQL aggregates it. */
export function mktFromSum(sumOfExponentials: number, n: number, hOverR: number): number | null {
  if (n === 0 || sumOfExponentials <= 0) return null;
  return hOverR / -Math.log(sumOfExponentials / n) - 273.15;
}

/** MKT in °C of a list of temperatures in °C (reference implementation for tests). */
export function meanKineticTemperature(valuesC: number[], activationEnergyKj = DEFAULT_ACTIVATION_ENERGY_KJ) {
  const hOverR = activationOverR(activationEnergyKj);
  const sum = valuesC.reduce((acc, c) => acc + Math.exp(-hOverR / (c + 273.15)), 0);
  return mktFromSum(sum, valuesC.length, hOverR);
}
