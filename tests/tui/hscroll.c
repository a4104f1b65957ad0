int main(void) { return abcdefg1abcdefg2abcdefg3abcdefg4abcdefg5abcdefg6abcdefg7abcdefg8abcdefg9(); }
int abcdefg1abcdefg2abcdefg3abcdefg4abcdefg5abcdefg6abcdefg7abcdefg8abcdefg9(void) { return 1; }
