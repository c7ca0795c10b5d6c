# str values: s[i] is a 1-char str, len(s), + concatenates, for iterates over characters, == and < compare.
s = "arrsh"
print(s[0], s[4], s[-1], s[-5], len(s), len(""))
t = s + " " + "shell"
print(t, len(t))
word = ""
for c in "abc" { word = c + word }
print(word)
print("a" == "a", "a" != "b", "abc" < "abd", "Z" < "a", "ab" < "abc", "b" > "abc")
print("tab\there", "quote\"inside", "back\\slash", "two\nlines")
u = "héllo wörld"
print(len(u), u[1], u[-4])
chars = "0123456789abcdef"
hex = ""
n = 48879
while n > 0 {
    hex = chars[n % 16] + hex
    n = int(n / 16)
}
print(hex)
print(str(1) + "+" + str(1.5) + "=" + str(1 + 1.5))
print("-" * 10, 3 * "ab")
k = arange(3)
print("k = " + str(k), "sum = " + str(sum(k)))
print(s[k[2]], chars[sum(k)])
