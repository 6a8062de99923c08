package com.healthpartner.api.json;

/**
 * Strict UTF-8 (RFC 3629): no overlong forms ({@code C0 AE} for {@code .}), no encoded
 * surrogates ({@code ED A0 80}), nothing above U+10FFFF, no truncated or stray bytes. A
 * lenient decoder turns overlong forms into the characters they spell, which would let
 * {@code /} or {@code .} through checks that look for them.
 */
final class Utf8 {

	private Utf8() {
	}

	static boolean valid(byte[] bytes) {
		int i = 0;
		int length = bytes.length;
		while (i < length) {
			int b = bytes[i];
			if (b >= 0) {
				i++;
				continue;
			}
			b &= 0xFF;
			if (b >= 0xC2 && b <= 0xDF) {
				if (!continuation(bytes, i + 1)) {
					return false;
				}
				i += 2;
			}
			else if (b >= 0xE0 && b <= 0xEF) {
				if (i + 2 >= length) {
					return false;
				}
				int second = bytes[i + 1] & 0xFF;
				int low = (b == 0xE0) ? 0xA0 : 0x80;
				int high = (b == 0xED) ? 0x9F : 0xBF;
				if (second < low || second > high || !continuation(bytes, i + 2)) {
					return false;
				}
				i += 3;
			}
			else if (b >= 0xF0 && b <= 0xF4) {
				if (i + 3 >= length) {
					return false;
				}
				int second = bytes[i + 1] & 0xFF;
				int low = (b == 0xF0) ? 0x90 : 0x80;
				int high = (b == 0xF4) ? 0x8F : 0xBF;
				if (second < low || second > high || !continuation(bytes, i + 2) || !continuation(bytes, i + 3)) {
					return false;
				}
				i += 4;
			}
			else {
				return false;
			}
		}
		return true;
	}

	private static boolean continuation(byte[] bytes, int at) {
		return at < bytes.length && (bytes[at] & 0xC0) == 0x80;
	}

}
