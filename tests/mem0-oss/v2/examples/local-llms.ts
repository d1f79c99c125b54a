// Ported from mem0ai/mem0 mem0-ts/src/oss/examples/local-llms.ts
// at c239d8a483120143707c42e459b48fb3c7261afb (v2 API: mem0ai 2.4.6).
// Port changes, and nothing else: the import of mem0's sources (now "memwasm/mem0"); the Ollama configs' host (baseURL: process.env.OLLAMA_HOST) and the Ollama client's.
// OpenAI's endpoint comes from OPENAI_BASE_URL / OPENAI_API_KEY, which examples.test.ts sets. Everything else is mem0's file as it is.
import { Memory } from "memwasm/mem0";
import { Ollama } from "ollama";
import * as readline from "readline";

const memory = new Memory({
  embedder: {
    provider: "ollama",
    config: {
      baseURL: process.env.OLLAMA_HOST,
      model: "nomic-embed-text:latest",
    },
  },
  vectorStore: {
    provider: "memory",
    config: {
      collectionName: "memories",
      dimension: 768, // since we are using nomic-embed-text
    },
  },
  llm: {
    provider: "ollama",
    config: {
      baseURL: process.env.OLLAMA_HOST,
      model: "llama3.1:8b",
    },
  },
  historyDbPath: "local-llms.db",
});

async function chatWithMemories(message: string, userId = "default_user") {
  const relevantMemories = await memory.search(message, { userId: userId });

  const memoriesStr = relevantMemories.results
    .map((entry) => `- ${entry.memory}`)
    .join("\n");

  const systemPrompt = `You are a helpful AI. Answer the question based on query and memories.
User Memories:
${memoriesStr}`;

  const messages = [
    { role: "system", content: systemPrompt },
    { role: "user", content: message },
  ];

  const ollama = new Ollama({ host: process.env.OLLAMA_HOST });
  const response = await ollama.chat({
    model: "llama3.1:8b",
    messages: messages,
  });

  const assistantResponse = response.message.content || "";

  messages.push({ role: "assistant", content: assistantResponse });
  await memory.add(messages, { userId: userId });

  return assistantResponse;
}

async function main() {
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
  });

  console.log("Chat with AI (type 'exit' to quit)");

  const askQuestion = (): Promise<string> => {
    return new Promise((resolve) => {
      rl.question("You: ", (input) => {
        resolve(input.trim());
      });
    });
  };

  try {
    while (true) {
      const userInput = await askQuestion();

      if (userInput.toLowerCase() === "exit") {
        console.log("Goodbye!");
        rl.close();
        break;
      }

      const response = await chatWithMemories(userInput, "sample_user");
      console.log(`AI: ${response}`);
    }
  } catch (error) {
    console.error("An error occurred:", error);
    rl.close();
  }
}

main().catch(console.error);
