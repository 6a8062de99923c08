package com.healthpartner.api.problem;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A problem prepared once and answered many times, each with its own request id, goes out
 * in the very bytes of the same problem answered whole; what could change the answer's
 * framing is refused when it is prepared.
 */
class PreparedProblemTest {

	private static final String PATH = "/api/v1/health/metrics/\"quoted\"\\path";

	private static final ApiException PROBLEM = new ApiException(ProblemType.RATE_LIMITED,
			"The rate limit 'default' (60 requests per minute) is used up; retry in 7 s \"now\"", List.of(),
			Map.of("Retry-After", "7"));

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ProblemWriter writer = new ProblemWriter(Problems.PROPERTIES, new Rejections(this.meters));

	@Test
	void aPreparedProblemGoesOutInTheBytesOfTheSameProblemAnsweredWhole() {
		PreparedProblem prepared = this.writer.prepare(PATH, PROBLEM, "X-RateLimit-Limit", "60", "RateLimit",
				"\"default\";r=0;t=7");
		for (String id : List.of("trace-1", "0f8e1c8a-4a3b-4e57-9a52-0c2d8a7b6e11", "a".repeat(128))) {
			String whole = encoded(this.writer.answer(PATH, id, PROBLEM, (headers) -> {
				headers.set(RequestIds.HEADER, id);
				headers.set("X-RateLimit-Limit", "60");
				headers.set("RateLimit", "\"default\";r=0;t=7");
			}));
			String fromPrepared = encoded(this.writer.answer(prepared, id));
			assertThat(fromPrepared).isEqualTo(whole)
				.startsWith("HTTP/1.1 429 Too Many Requests\r\nX-Request-Id: " + id + "\r\n")
				.contains("\r\nRetry-After: 7\r\ncontent-length: ")
				.endsWith(",\"code\":\"rate_limited\",\"request_id\":\"" + id + "\"}");
		}
		assertThat(this.meters.get("api.rejections").tag("code", "rate_limited").counter().count())
			.as("every answer counted, the prepared ones too")
			.isEqualTo(6);
	}

	@Test
	void whatCouldSplitOrMisframeTheAnswerIsRefusedWhenPrepared() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.writer.prepare(PATH, PROBLEM, "RateLimit", "x\r\nSet-Cookie: a=b"));
		assertThatIllegalArgumentException().isThrownBy(() -> this.writer.prepare(PATH, PROBLEM, "Rate Limit", "1"));
		assertThatIllegalArgumentException().isThrownBy(() -> this.writer.prepare(PATH, PROBLEM, "RateLimit"));
		assertThatIllegalArgumentException().as("a problem whose body lists field errors")
			.isThrownBy(() -> this.writer.prepare(PATH,
					ApiException.validation(List.of(new FieldError("user_id", "is required")))));
	}

	private static String encoded(FullHttpResponse response) {
		EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder());
		channel.writeOutbound(response);
		StringBuilder bytes = new StringBuilder();
		for (ByteBuf buffer = channel.readOutbound(); buffer != null; buffer = channel.readOutbound()) {
			bytes.append(buffer.toString(StandardCharsets.UTF_8));
			buffer.release();
		}
		channel.finishAndReleaseAll();
		return bytes.toString();
	}

}
