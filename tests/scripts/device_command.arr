# `:device cpu` is a script line; the default device is where new arrays live.
:device cpu
x = ones(2)
print(x.device, zeros([2, 2]).device, arange(3).device, eye(2).device, rand(2).device)
fn make() {
    :device cpu
    return full(2, 7)
}
print(make().device)
:device cpu   # a comment may follow a command, as on any line
print("still", zeros(1).device)
