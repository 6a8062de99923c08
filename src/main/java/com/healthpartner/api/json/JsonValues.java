package com.healthpartner.api.json;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;

import com.healthpartner.api.problem.FieldErrors;

/**
 * Checks on JSON values the service stores as they were sent (PostgreSQL {@code jsonb}):
 * numbers must be finite 64-bit floats, as every partner's JSON library can read them
 * back, and short enough written out in full, and text must be valid Unicode without NUL,
 * which {@code jsonb} cannot hold.
 */
public final class JsonValues {

	/**
	 * Characters a stored number may have written out in full. {@code jsonb} keeps
	 * numbers as {@code numeric} and sends them back without an exponent:
	 * {@code 0e-16000} is finite (zero) but would come back as 16,002 characters, and
	 * from 16,384 decimal places on PostgreSQL refuses it. Jackson, like other parsers,
	 * refuses by default a number longer than 1000 characters, so a longer one could not
	 * even be read back. A double written as such needs at most about 330.
	 */
	public static final int MAX_NUMBER_LENGTH = 1000;

	/**
	 * The largest exponent a stored number may be written with. PostgreSQL refuses a
	 * {@code numeric} written with an exponent beyond 1000 either way, even for zero
	 * ({@code 0e1073741823} "overflows numeric format"); a non-zero number that far out
	 * is already over {@link #MAX_NUMBER_LENGTH}.
	 */
	public static final int MAX_EXPONENT = 1000;

	private JsonValues() {
	}

	/**
	 * What is wrong with a JSON number the service would store, if anything: not finite
	 * in double precision, or longer than {@value #MAX_NUMBER_LENGTH} characters written
	 * out in full.
	 */
	public static Optional<String> numberProblem(JsonNode number) {
		if (!isFinite(number)) {
			return Optional.of("must be a finite number");
		}
		long length = plainLength(number.decimalValue());
		if (length > MAX_NUMBER_LENGTH) {
			return Optional.of("must be at most " + MAX_NUMBER_LENGTH
					+ " characters long written without an exponent, as it is stored (this one has " + length + ")");
		}
		if (Math.abs((long) number.decimalValue().scale()) > MAX_EXPONENT) {
			return Optional.of("must be a number with an exponent between -" + MAX_EXPONENT + " and " + MAX_EXPONENT);
		}
		return Optional.empty();
	}

	/**
	 * The length of the number written out without an exponent, as PostgreSQL writes a
	 * {@code numeric} ({@code 0e-5} is {@code 0.00000}, {@code 0e5} is {@code 0}),
	 * computed without writing it.
	 */
	static long plainLength(BigDecimal number) {
		long scale = number.scale();
		long integerDigits = (number.signum() == 0) ? 1 : Math.max(1, number.precision() - scale);
		long fractionDigits = Math.max(0, scale);
		return ((number.signum() < 0) ? 1 : 0) + integerDigits + ((fractionDigits > 0) ? 1 + fractionDigits : 0);
	}

	/**
	 * Whether a number is finite in double precision: {@code 1e309} overflows to
	 * infinity, {@code 1e-400} to a zero it is not.
	 */
	public static boolean isFinite(JsonNode number) {
		BigDecimal exact = number.decimalValue();
		double approximate = exact.doubleValue();
		return Double.isFinite(approximate) && (approximate != 0 || exact.signum() == 0);
	}

	/**
	 * Adds an error for every value under {@code path} that cannot be stored: a number
	 * with a {@link #numberProblem problem} or bad text (names included), with its path
	 * ({@code responses.items[2].score}).
	 */
	public static void checkStorable(JsonNode node, String path, FieldErrors errors) {
		if (node.isNumber()) {
			numberProblem(node).ifPresent((problem) -> errors.add(path, problem));
		}
		else if (node.isString()) {
			if (!isStorableText(node.stringValue())) {
				errors.add(path, "must be valid Unicode text without the NUL character");
			}
		}
		else if (node.isArray()) {
			for (int i = 0; i < node.size(); i++) {
				checkStorable(node.get(i), path + "[" + i + "]", errors);
			}
		}
		else if (node.isObject()) {
			for (Map.Entry<String, JsonNode> property : node.properties()) {
				String child = path + "." + property.getKey();
				if (!isStorableText(property.getKey())) {
					errors.add(child, "must be a name of valid Unicode text without the NUL character");
				}
				checkStorable(property.getValue(), child, errors);
			}
		}
	}

	static boolean isStorableText(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == 0) {
				return false;
			}
			if (Character.isHighSurrogate(c)) {
				if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
					return false;
				}
				i++;
			}
			else if (Character.isLowSurrogate(c)) {
				return false;
			}
		}
		return true;
	}

}
