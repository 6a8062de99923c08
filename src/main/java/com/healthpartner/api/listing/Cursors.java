package com.healthpartner.api.listing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;

import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

import com.healthpartner.api.crypto.Digests;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.system.AppProperties;

/**
 * Opaque keyset cursors: the position (time, id) of the last record of a page, with an
 * HMAC over the position and the query it belongs to (partner, path, filters). A cursor
 * that was altered, or that is sent with another query or by another partner, does not
 * verify.
 */
@Component
public class Cursors {

	private static final int MAC_BYTES = 16;

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private final SecretKeySpec key;

	Cursors(AppProperties properties) {
		this.key = Digests
			.hmacKey(Digests.hmacSha256(Digests.hmacKey(properties.secretEncryptionKeyBytes()), "keyset-cursor"));
	}

	public String encode(String query, Instant at, UUID id) {
		ByteBuffer position = ByteBuffer.allocate(24)
			.putLong(at.toEpochMilli())
			.putLong(id.getMostSignificantBits())
			.putLong(id.getLeastSignificantBits());
		byte[] signature = Arrays.copyOf(sign(query, position.array()), MAC_BYTES);
		return ENCODER.encodeToString(ByteBuffer.allocate(24 + MAC_BYTES).put(position.array()).put(signature).array());
	}

	/**
	 * The position of a cursor sent by a client, or a 400 naming the {@code cursor}
	 * parameter.
	 */
	public Position decode(String query, String cursor) {
		byte[] raw;
		try {
			raw = Base64.getUrlDecoder().decode(cursor);
		}
		catch (IllegalArgumentException ex) {
			throw invalid();
		}
		if (raw.length != 24 + MAC_BYTES) {
			throw invalid();
		}
		byte[] position = Arrays.copyOf(raw, 24);
		byte[] expected = Arrays.copyOf(sign(query, position), MAC_BYTES);
		if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(raw, 24, raw.length))) {
			throw invalid();
		}
		ByteBuffer buffer = ByteBuffer.wrap(position);
		return new Position(Instant.ofEpochMilli(buffer.getLong()), new UUID(buffer.getLong(), buffer.getLong()));
	}

	/**
	 * A cursor for a position of two numbers (the change feed's transaction id and
	 * sequence), signed like keyset cursors.
	 */
	public String encode(String query, long first, long second) {
		byte[] position = ByteBuffer.allocate(16).putLong(first).putLong(second).array();
		byte[] signature = Arrays.copyOf(sign(query, position), MAC_BYTES);
		return ENCODER.encodeToString(ByteBuffer.allocate(16 + MAC_BYTES).put(position).put(signature).array());
	}

	/**
	 * The two numbers of a cursor made by {@link #encode(String, long, long)}, or a 400.
	 */
	public long[] decodeNumbers(String query, String cursor) {
		byte[] raw;
		try {
			raw = Base64.getUrlDecoder().decode(cursor);
		}
		catch (IllegalArgumentException ex) {
			throw invalid();
		}
		if (raw.length != 16 + MAC_BYTES) {
			throw invalid();
		}
		byte[] position = Arrays.copyOf(raw, 16);
		byte[] expected = Arrays.copyOf(sign(query, position), MAC_BYTES);
		if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(raw, 16, raw.length))) {
			throw invalid();
		}
		ByteBuffer buffer = ByteBuffer.wrap(position);
		return new long[] { buffer.getLong(), buffer.getLong() };
	}

	private byte[] sign(String query, byte[] position) {
		byte[] queryBytes = query.getBytes(StandardCharsets.UTF_8);
		return Digests.hmacSha256(this.key,
				ByteBuffer.allocate(queryBytes.length + 1 + position.length)
					.put(queryBytes)
					.put((byte) 0)
					.put(position)
					.array());
	}

	private static ApiException invalid() {
		return ApiException.invalidField("cursor",
				"is not a cursor of this query; pass next_cursor of the previous page unchanged, with the same filters");
	}

	/** Where a page starts: after the record at this time with this id. */
	public record Position(Instant at, UUID id) {
	}

}
