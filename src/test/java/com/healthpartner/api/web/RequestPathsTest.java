package com.healthpartner.api.web;

import java.util.SplittableRandom;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;

import com.healthpartner.api.web.RequestPaths.Zone;

import static org.assertj.core.api.Assertions.assertThat;

class RequestPathsTest {

	private static final HttpMethod[] METHODS = { HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE,
			HttpMethod.HEAD };

	@ParameterizedTest
	@CsvSource({ "POST, /api/v1/auth, REGISTRATION", "POST, /api/v1//auth, REGISTRATION",
			"POST, /api/v1/%61uth, REGISTRATION", "POST, /api/v1/auth;x=1, REGISTRATION",
			"POST, /api/v1/auth/, PARTNER", "POST, /api/v1/authx, PARTNER", "POST, /api/v1/auth/me, PARTNER",
			"POST, /api/v1/, PARTNER", "GET, /api/v1/auth, PARTNER", "POST, /api/v1/health/metrics, PARTNER",
			"GET, /admin/v1/partners, ADMIN", "GET, //admin, ADMIN", "GET, /%61dmin/v1/partners, ADMIN",
			"GET, /api/v2/auth, OTHER_API", "GET, /api, OTHER_API", "GET, /docs, PUBLIC", "GET, /, PUBLIC" })
	void theZoneOfARawPathIsTheZoneOfItParsed(HttpMethod method, String path, Zone zone) {
		assertThat(RequestPaths.zone(method, path)).isEqualTo(zone);
		assertThat(RequestPaths.zone(method, PathContainer.parsePath(path))).isEqualTo(zone);
	}

	@Test
	void everyRawPathHasTheZoneOfItParsed() {
		String[] starts = { "/api/v1/", "/api/v1", "/api/", "/admin/", "/", "//", "/docs" };
		String[] pieces = { "/", "//", "auth", "a", "uth", "%61", "%2F", ";", ";x=1", "=", "me", "health", "metrics",
				"%", ".", "api", "v1", "admin" };
		SplittableRandom random = new SplittableRandom(30);
		for (int i = 0; i < 50_000; i++) {
			StringBuilder path = new StringBuilder(starts[random.nextInt(starts.length)]);
			for (int n = random.nextInt(5); n > 0; n--) {
				path.append(pieces[random.nextInt(pieces.length)]);
			}
			HttpMethod method = METHODS[random.nextInt(METHODS.length)];
			String text = path.toString();
			// a path with a broken escape fails as parsing it fails
			assertThat(outcome(() -> RequestPaths.zone(method, text))).as("%s %s", method, text)
				.isEqualTo(outcome(() -> RequestPaths.zone(method, PathContainer.parsePath(text))));
		}
	}

	private static Object outcome(Supplier<Zone> zone) {
		try {
			return zone.get();
		}
		catch (IllegalArgumentException ex) {
			return ex.getMessage();
		}
	}

}
