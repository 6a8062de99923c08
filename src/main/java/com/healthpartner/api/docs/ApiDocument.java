package com.healthpartner.api.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;

import com.healthpartner.api.system.AppProperties;

/**
 * The maintained OpenAPI 3.1 document of every public and administrator route (the
 * document the tests validate every answer against), read once at startup with the
 * {@code servers} URL of this deployment ({@code APP_PUBLIC_BASE_URL}).
 */
@Component
class ApiDocument {

	static final String LOCATION = "openapi/health-partner-api.yaml";

	private final byte[] json;

	private final byte[] yaml;

	ApiDocument(AppProperties properties) {
		YAMLMapper yamlMapper = YAMLMapper.builder().build();
		ObjectNode document = read(yamlMapper);
		ArrayNode servers = document.putArray("servers");
		servers.addObject()
			.put("url", properties.publicBaseUrl())
			.put("description", "The base URL of this deployment (APP_PUBLIC_BASE_URL)");
		this.json = JsonMapper.builder().build().writeValueAsBytes(document);
		this.yaml = yamlMapper.writeValueAsBytes(document);
	}

	byte[] json() {
		return this.json;
	}

	byte[] yaml() {
		return this.yaml;
	}

	private static ObjectNode read(YAMLMapper mapper) {
		try (InputStream in = new ClassPathResource(LOCATION).getInputStream()) {
			JsonNode node = mapper.readTree(in);
			if (!(node instanceof ObjectNode document)) {
				throw new IllegalStateException(LOCATION + " is not an OpenAPI document");
			}
			return document;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the OpenAPI document " + LOCATION, ex);
		}
	}

}
