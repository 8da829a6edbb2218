package account

// commonPasswords are among the most used passwords in public breach corpora (lower case);
// a password equal to one of them, ignoring case, is refused. Only those of 8 characters or
// more matter, since shorter ones already fail the length rule.
var commonPasswords = map[string]struct{}{}

func init() {
	for _, p := range []string{
		"password", "password1", "password12", "password123", "password1234", "passw0rd", "p@ssw0rd", "p@ssword",
		"12345678", "123456789", "1234567890", "12345678910", "123123123", "11111111", "111111111", "00000000",
		"87654321", "987654321", "0987654321", "123456123", "1q2w3e4r", "1q2w3e4r5t", "1qaz2wsx", "1qazxsw2",
		"qwertyui", "qwertyuiop", "qwerty123", "qwerty12", "qwerty1234", "asdfghjk", "asdfghjkl", "zxcvbnm1",
		"zaq12wsx", "q1w2e3r4", "q1w2e3r4t5", "abcd1234", "abc12345", "abcdefgh", "iloveyou", "iloveyou1",
		"sunshine", "princess", "football", "baseball", "basketball", "superman", "starwars", "whatever",
		"trustno1", "welcome1", "welcome123", "letmein1", "letmein123", "monkey123", "dragon123", "master123",
		"michelle", "jennifer", "jordan23", "computer", "corvette", "mercedes", "mustang1", "liverpool",
		"chelsea1", "arsenal1", "pokemon1", "minecraft", "fuckyou1", "babygirl", "lovely123", "changeme",
		"changeme123", "admin123", "administrator", "secret123", "internet", "samsung1", "google123",
		"charlie1", "shadow12", "michael1", "daniel123", "soccer12", "hello123", "helloworld", "freedom1",
		"whatever1", "unknown1", "default1", "passpass", "testtest", "test1234", "qazwsxedc", "azertyuiop",
		"11223344", "12341234", "aaaaaaaa", "1234qwer", "q1w2e3r4t5y6", "1q2w3e4r5t6y", "percolate", "percolate1",
	} {
		commonPasswords[p] = struct{}{}
	}
}
