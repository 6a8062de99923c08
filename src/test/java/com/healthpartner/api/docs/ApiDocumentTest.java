package com.healthpartner.api.docs;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

import com.healthpartner.api.support.IntegrationTest;
import com.healthpartner.api.system.AppProperties;

import static org.assertj.core.api.Assertions.assertThat;

class ApiDocumentTest {

	@Test
	void theServersUrlIsThisDeploymentsPublicBaseUrl() {
		ApiDocument document = new ApiDocument(new AppProperties(IntegrationTest.ADMIN_TOKEN,
				IntegrationTest.ENCRYPTION_KEY, "https://partners.example.com/", 65536));
		JsonNode json = JsonMapper.builder().build().readTree(document.json());
		assertThat(json.path("openapi").asString()).isEqualTo("3.1.0");
		assertThat(json.path("servers")).hasSize(1);
		assertThat(json.path("servers").path(0).path("url").asString()).isEqualTo("https://partners.example.com");
		assertThat(YAMLMapper.builder().build().readTree(document.yaml())).isEqualTo(json);
	}

}
