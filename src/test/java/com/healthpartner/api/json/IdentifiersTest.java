package com.healthpartner.api.json;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IdentifiersTest {

	/** The rule as docs/api.md states it. */
	private static final Pattern RULE = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

	@Test
	void acceptsExactlyWhatTheDocumentedRuleAccepts() {
		String[] samples = { "a", "user-1", "U.s_e:r@x-9", "a".repeat(128), "a".repeat(129), "", " ", "user 1",
				"user/1", "é", "user\n", "ｕｓｅｒ", "\u0000", "a+b", "a#b", "ABCxyz0123456789", "-", "..", "@:" };
		for (String sample : samples) {
			assertThat(Identifiers.wellFormed(sample)).as(sample).isEqualTo(RULE.matcher(sample).matches());
		}
		for (int c = 0; c < 0x3000; c++) {
			String one = "x" + (char) c;
			assertThat(Identifiers.wellFormed(one)).as("U+%04X", c).isEqualTo(RULE.matcher(one).matches());
		}
	}

}
