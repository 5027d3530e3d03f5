"""Static-graph training programs written once against Paddle's API: the tests run them with padax as `paddle`,
and paddle_oracle.py runs them with Paddle itself."""
import numpy as np


def build(paddle, cfg: dict, data) -> dict:
    """The program of one case: data x/y, the model, the mean-square loss and the optimizer's minimize."""
    main_p, startup = paddle.static.Program(), paddle.static.Program()
    init = paddle.nn.initializer.Assign
    attr = lambda n: paddle.ParamAttr(n, initializer=init(np.asarray(data[n])))  # noqa: E731
    with paddle.static.program_guard(main_p, startup):
        x = paddle.static.data("x", [None] + cfg["x_shape"], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        if cfg["model"] == "mlp":
            h = paddle.static.nn.fc(x, 8, activation="relu", weight_attr=attr("w0"), bias_attr=attr("b0"))
            pred = paddle.static.nn.fc(h, 1, weight_attr=attr("w1"), bias_attr=attr("b1"))
        elif cfg["model"] == "layers":  # paddle.nn Layers in static mode, BatchNorm1D's statistics updated per run
            # no bias before the batch norm: its gradient is rounding noise, which Adam would amplify to +-lr
            h = paddle.nn.Linear(4, 8, weight_attr=attr("w0"), bias_attr=False)(x)
            h = paddle.nn.functional.relu(paddle.nn.BatchNorm1D(8, momentum=0.8, weight_attr=attr("bs"),
                                                                bias_attr=attr("bb"), name="bnl")(h))
            pred = paddle.nn.Linear(8, 1, weight_attr=attr("w1"), bias_attr=attr("b1"))(h)
        else:  # conv -> batch_norm -> reshape(-1, ...) -> fc
            h = paddle.static.nn.conv2d(x, 3, 3, padding=1, act="relu", param_attr=attr("cw"), bias_attr=attr("cb"))
            h = paddle.static.nn.batch_norm(h, param_attr=attr("bs"), bias_attr=attr("bb"),
                                            moving_mean_name="bm", moving_variance_name="bv")
            h = paddle.reshape(h, [-1, 3 * 4 * 4])
            pred = paddle.static.nn.fc(h, 1, weight_attr=attr("w1"), bias_attr=attr("b1"))
        loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
        test_p = main_p.clone(for_test=True)
        lr = cfg["lr"]
        opt = {"sgd": lambda: paddle.optimizer.SGD(lr), "momentum": lambda: paddle.optimizer.Momentum(lr, 0.9),
               "adam": lambda: paddle.optimizer.Adam(lr),
               "adamw": lambda: paddle.optimizer.AdamW(lr, weight_decay=0.05),
               # a schedule stepped between runs (train calls scheduler.step())
               "adam_sched": lambda: paddle.optimizer.Adam(paddle.optimizer.lr.StepDecay(lr, step_size=2, gamma=0.3))
               }[cfg["optimizer"]]()
        opt.minimize(loss)
    return dict(main=main_p, startup=startup, test=test_p, x=x, y=y, h=h, pred=pred, loss=loss, opt=opt)


def train(paddle, cfg: dict, data) -> dict:
    """Run the case's steps; the losses, the first step's intermediate `h`, the test program's prediction at the
    end, and the final values of the persistable variables named in cfg['params']."""
    prog = build(paddle, cfg, data)
    scope = paddle.static.Scope()
    out = {}
    with paddle.static.scope_guard(scope):
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(prog["startup"])
        losses = []
        for i in range(cfg["steps"]):
            loss, h = exe.run(prog["main"], feed={"x": data[f"x{i}"], "y": data[f"y{i}"]},
                              fetch_list=[prog["loss"], prog["h"]])
            losses.append(float(loss))
            if isinstance(prog["opt"]._learning_rate, paddle.optimizer.lr.LRScheduler) and i % 2 == 0:
                prog["opt"]._learning_rate.step()  # every other run: the epochs are not the optimizer's steps
            if i == 0:
                out["h0"] = np.asarray(h)
        out["test_pred"] = exe.run(prog["test"], feed={"x": data["x0"], "y": data["y0"]}, fetch_list=[prog["pred"]])[0]
        for n in cfg["params"]:
            out["param_" + n] = np.array(scope.find_var(n).get_tensor())
        if cfg.get("save"):  # the trained parameters, as static.save writes them (.pdparams, .pdopt)
            paddle.static.save(prog["main"], cfg["save"])
    out["losses"] = np.array(losses)
    return out
