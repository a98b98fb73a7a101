// Writes small TorchScript modules for the tests, the way a user's torch.jit.script(model).save()
// would, but without Python: a module built in C++ with parameters, a buffer and a compiled forward.
//
//   make_torchscript mlp FILE        784 → 64 → 10 with a batch-norm-like running mean buffer
//   make_torchscript cnn FILE        two convolutions for 1×28×28 images, flattened by torch.flatten
//   make_torchscript viewcnn FILE    the same, flattened by view() (which channels-last cannot take)
//   make_torchscript trainviewcnn FILE  flattened by view() only while training
//   make_torchscript lastcnn FILE    "cnn" saved with its second convolution's weight channels-last
//   make_torchscript noparams FILE   a forward with nothing to train
#include <iostream>
#include <string>
#include <torch/script.h>
#include <torch/torch.h>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: make_torchscript mlp|cnn|viewcnn|trainviewcnn|lastcnn|noparams FILE\n";
        return 2;
    }
    const std::string kind = argv[1];
    torch::manual_seed(0);
    torch::jit::Module m("UserModel");
    if (kind == "mlp") {
        // As nn.Parameter does in Python, parameters require gradients.
        m.register_parameter("w1", (torch::randn({784, 64}) * 0.05).requires_grad_(), false);
        m.register_parameter("b1", torch::zeros({64}).requires_grad_(), false);
        m.register_parameter("w2", (torch::randn({64, 10}) * 0.1).requires_grad_(), false);
        m.register_parameter("b2", torch::zeros({10}).requires_grad_(), false);
        m.register_buffer("running_mean", torch::zeros({64}));
        m.register_attribute("training", c10::BoolType::get(), true);
        m.define(R"(
def forward(self, x):
    h = torch.matmul(x.flatten(1), self.w1) + self.b1
    if self.training:
        self.running_mean.mul_(0.9).add_(h.detach().mean(0) * 0.1)
    return torch.matmul(torch.relu(h), self.w2) + self.b2
)");
    } else if (kind == "cnn" || kind == "viewcnn" || kind == "trainviewcnn" || kind == "lastcnn") {
        // Two convolutions on 1×28×28 images. "viewcnn" flattens with view(), which a channels-last
        // activation cannot take (Entrena then keeps the default layout).
        m.register_parameter("w1", (torch::randn({8, 1, 3, 3}) * 0.3).requires_grad_(), false);
        m.register_parameter("b1", torch::zeros({8}).requires_grad_(), false);
        auto w2 = torch::randn({16, 8, 3, 3}) * 0.12;
        if (kind == "lastcnn") // as model.to(memory_format=torch.channels_last) before saving leaves it
            w2 = w2.contiguous(torch::MemoryFormat::ChannelsLast);
        m.register_parameter("w2", w2.requires_grad_(), false);
        m.register_parameter("b2", torch::zeros({16}).requires_grad_(), false);
        m.register_parameter("w3", (torch::randn({10, 784}) * 0.03).requires_grad_(), false);
        m.register_parameter("b3", torch::zeros({10}).requires_grad_(), false);
        m.register_attribute("training", c10::BoolType::get(), true);
        // "trainviewcnn" views only while training (as an auxiliary head might).
        const std::string flatten = kind == "cnn" || kind == "lastcnn" ? "torch.flatten(h, 1)" : "h.view(h.size(0), -1)";
        const std::string evalFlatten = kind == "viewcnn" ? flatten : "torch.flatten(h, 1)";
        m.define(R"(
def forward(self, x):
    h = torch.max_pool2d(torch.relu(torch.conv2d(x, self.w1, self.b1, [1, 1], [1, 1])), [2, 2])
    h = torch.max_pool2d(torch.relu(torch.conv2d(h, self.w2, self.b2, [1, 1], [1, 1])), [2, 2])
    if self.training:
        return torch.matmul()" +
                 flatten + R"(, self.w3.t()) + self.b3
    return torch.matmul()" +
                 evalFlatten + R"(, self.w3.t()) + self.b3
)");
    } else if (kind == "noparams") {
        m.define(R"(
def forward(self, x):
    return x.flatten(1)[:, :10]
)");
    } else {
        std::cerr << "unknown kind " << kind << "\n";
        return 2;
    }
    m.save(argv[2]);
    return 0;
}
