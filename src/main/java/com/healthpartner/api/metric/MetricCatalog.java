package com.healthpartner.api.metric;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The metrics the service knows, with their unit and plausible bounds (docs/api.md,
 * Metric catalog). Values of other metric names are accepted as any finite number.
 */
enum MetricCatalog {

	// name, unit, minimum, whether the minimum itself is excluded, maximum (included),
	// whole
	// numbers only
	// @formatter:off
	WEIGHT("weight", "kg", 0, true, 700),
	HEIGHT("height", "cm", 0, true, 300),
	BMI("bmi", "kg/m²", 0, true, 200),
	BODY_FAT("body_fat", "%", 0, false, 100),
	HEART_RATE("heart_rate", "bpm", 0, true, 400),
	RESTING_HEART_RATE("resting_heart_rate", "bpm", 0, true, 400),
	SYSTOLIC_BP("systolic_bp", "mmHg", 0, true, 400),
	DIASTOLIC_BP("diastolic_bp", "mmHg", 0, true, 400),
	BLOOD_GLUCOSE("blood_glucose", "mmol/L", 0, true, 100),
	SPO2("spo2", "%", 0, false, 100),
	BODY_TEMPERATURE("body_temperature", "°C", 20, false, 50),
	STEPS("steps", "count", 0, false, 200_000, true),
	SLEEP_DURATION("sleep_duration", "h", 0, false, 24),
	VO2MAX("vo2max", "mL/kg/min", 0, true, 120);
	// @formatter:on

	private static final Map<String, MetricCatalog> BY_NAME = Arrays.stream(values())
		.collect(Collectors.toUnmodifiableMap(MetricCatalog::metricName, Function.identity()));

	private final String metricName;

	private final String unit;

	private final BigDecimal minimum;

	private final boolean exclusiveMinimum;

	private final BigDecimal maximum;

	private final boolean integer;

	MetricCatalog(String name, String unit, int minimum, boolean exclusiveMinimum, int maximum) {
		this(name, unit, minimum, exclusiveMinimum, maximum, false);
	}

	MetricCatalog(String name, String unit, int minimum, boolean exclusiveMinimum, int maximum, boolean integer) {
		this.metricName = name;
		this.unit = unit;
		this.minimum = BigDecimal.valueOf(minimum);
		this.exclusiveMinimum = exclusiveMinimum;
		this.maximum = BigDecimal.valueOf(maximum);
		this.integer = integer;
	}

	static Optional<MetricCatalog> of(String name) {
		return Optional.ofNullable(BY_NAME.get(name));
	}

	String metricName() {
		return this.metricName;
	}

	/** Why a finite value is out of this metric's bounds, or empty when it is in. */
	Optional<String> check(BigDecimal value) {
		boolean aboveMinimum = this.exclusiveMinimum ? value.compareTo(this.minimum) > 0
				: value.compareTo(this.minimum) >= 0;
		boolean integral = !this.integer || value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
		if (aboveMinimum && value.compareTo(this.maximum) <= 0 && integral) {
			return Optional.empty();
		}
		return Optional.of(rule());
	}

	private String rule() {
		String kind = this.integer ? "a whole number" : "a number";
		String lower = (this.exclusiveMinimum ? "greater than " : "at least ") + this.minimum;
		return "must be " + kind + " " + lower + " and at most " + this.maximum + " (" + this.unit + ")";
	}

	Entry entry() {
		// every maximum of the catalog is inclusive
		return new Entry(this.metricName, this.unit, this.minimum, this.exclusiveMinimum, this.maximum, false,
				this.integer);
	}

	static List<Entry> entries() {
		return Arrays.stream(values()).map(MetricCatalog::entry).toList();
	}

	/** One row of {@code GET /api/v1/health/metrics/catalog}. */
	record Entry(String name, String unit, BigDecimal minimum, boolean exclusiveMinimum, BigDecimal maximum,
			boolean exclusiveMaximum, boolean integer) {
	}

}
